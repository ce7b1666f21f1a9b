import { CUSTOM_PUBLISHER, customRecordUpdateTool } from "./customRecordTools";

export const updateCustomPublisher = customRecordUpdateTool(CUSTOM_PUBLISHER);
