ALTER TABLE `tickets` ADD `tag_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `tickets` SET `tag_count` = (SELECT count(*) FROM `ticket_tags` WHERE `ticket_id` = `tickets`.`id`)
 WHERE `id` IN (SELECT `ticket_id` FROM `ticket_tags`);
--> statement-breakpoint
-- tickets.tag_count, exact by construction (a cascade from a deleted tag or ticket fires these too).
CREATE TRIGGER `ticket_tags_count_insert` AFTER INSERT ON `ticket_tags` BEGIN
  UPDATE tickets SET tag_count = tag_count + 1 WHERE id = new.ticket_id;
END;
--> statement-breakpoint
CREATE TRIGGER `ticket_tags_count_delete` AFTER DELETE ON `ticket_tags` BEGIN
  UPDATE tickets SET tag_count = tag_count - 1 WHERE id = old.ticket_id;
END;
--> statement-breakpoint
CREATE TRIGGER `ticket_tags_count_update` AFTER UPDATE OF `ticket_id` ON `ticket_tags` BEGIN
  UPDATE tickets SET tag_count = tag_count - 1 WHERE id = old.ticket_id;
  UPDATE tickets SET tag_count = tag_count + 1 WHERE id = new.ticket_id;
END;
