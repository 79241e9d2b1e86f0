/** Whether a process runs (or is a zombie not yet reaped): signal 0 checks without signalling. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
