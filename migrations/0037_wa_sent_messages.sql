CREATE TABLE `wa_sent_messages` (
	`whatsapp_id` integer NOT NULL,
	`msg_id` text NOT NULL,
	`message` blob NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`whatsapp_id`, `msg_id`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `wa_sent_messages_created` ON `wa_sent_messages` (`created_at`);