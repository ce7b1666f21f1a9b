// "Today" as a new account counts it: the day in its time zone (Asia/Tokyo by default), not UTC.
import { DAY_MS, DEFAULT_TIME_ZONE, dayIn } from "../../src/platform/time";

/** The day `days` from now in a new account's time zone, YYYY-MM-DD. */
export const accountDay = (days = 0) => dayIn(new Date(Date.now() + days * DAY_MS), DEFAULT_TIME_ZONE);
