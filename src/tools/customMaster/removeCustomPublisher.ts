import { CUSTOM_PUBLISHER, customRecordRemoveTool } from "./shared";

export const removeCustomPublisher = customRecordRemoveTool(CUSTOM_PUBLISHER);
