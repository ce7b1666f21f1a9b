import { CUSTOM_PUBLISHER, customRecordRemoveTool } from "./customRecordTools";

export const removeCustomPublisher = customRecordRemoveTool(CUSTOM_PUBLISHER);
