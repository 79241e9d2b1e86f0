/**
 * The signed-in member's own time zone (their account setting, `GET /api/session` user.time_zone),
 * kept where console/src/zones.ts reads it without a context: the app sets it whenever the session
 * loads, and every time the console shows is read in it. None set: the browser's zone.
 */
let own: string | undefined;

export const setOwnZone = (zone: string | null | undefined) => {
  own = zone ?? undefined;
};
export const ownZone = () => own;
