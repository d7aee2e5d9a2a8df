CREATE TABLE `whatsapp_health` (
	`whatsapp_id` integer PRIMARY KEY NOT NULL,
	`baileys_version` text,
	`wa_web_version` text,
	`last_received_at` integer,
	`last_acked_at` integer,
	`last_disconnect_reason` text,
	`last_disconnect_code` integer,
	`last_disconnect_at` integer,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `connection_doors` ADD `restricted_until` integer;