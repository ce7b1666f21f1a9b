ALTER TABLE `api_keys` ADD `oauth_client_id` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `oauth_redirect_uri` text;