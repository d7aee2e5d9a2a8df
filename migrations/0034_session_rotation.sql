ALTER TABLE `user_sessions` ADD `previous_token_hash` text;--> statement-breakpoint
ALTER TABLE `user_sessions` ADD `rotated_at` integer;--> statement-breakpoint
CREATE INDEX `user_sessions_previous_token` ON `user_sessions` (`previous_token_hash`);