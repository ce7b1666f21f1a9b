import { CUSTOM_PUBLISHER, customRecordUpdateTool } from "./shared";

export const updateCustomPublisher = customRecordUpdateTool(CUSTOM_PUBLISHER);
