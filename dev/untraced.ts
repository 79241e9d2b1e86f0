/**
 * Imported first by what runs the functions locally (`npm start`, the invoke and admin CLIs), before
 * any function module. The Tracer is off outside Lambda, but the X-Ray SDK it loads starts its
 * automatic mode on import: an async hook on every promise and socket of the process, which cost
 * about a tenth of the CPU of a busy integration test file (a CPU profile: its destroy hooks and
 * the garbage they leave). Manual mode creates no hook; nothing traces here. Deployed functions
 * never import this file. The bench does not either: its init-time figures are the real ones.
 */
process.env.AWS_XRAY_MANUAL_MODE ??= 'true';
