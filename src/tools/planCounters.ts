import { API_KEYS_COUNTER } from "../platform/auth";
import type { PlanCounter } from "../platform/registeredLimits";
import { ATTRIBUTES_COUNTER } from "./attributes/queries";
import { COLLECTIONS_COUNTER } from "./collections/queries";
import { CONSOLES_COUNTER } from "./consoles/queries";
import { CUSTOM_GAMES_COUNTER } from "./customGames/queries";
import { PLATFORM, PUBLISHER } from "./customMaster/queries";
import { LIBRARY_COUNTER } from "./library/queries";
import { TAGS_COUNTER } from "./tags/queries";
import { WISHLIST_COUNTER } from "./wishlist/queries";

/** Every plan-limited resource's counter, each declared by its own family; getAccount shows them in this order. */
export const PLAN_COUNTERS: readonly PlanCounter[] = [
  API_KEYS_COUNTER,
  ATTRIBUTES_COUNTER,
  CUSTOM_GAMES_COUNTER,
  PLATFORM.counter,
  PUBLISHER.counter,
  LIBRARY_COUNTER,
  WISHLIST_COUNTER,
  CONSOLES_COUNTER,
  TAGS_COUNTER,
  COLLECTIONS_COUNTER,
];
