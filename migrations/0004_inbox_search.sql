-- Message text search. Contentless (the text lives in messages), with the ticket id packed into the rowid
-- (ticket_id << 32 | message_id) so a hit names its ticket without a join. Fed by the server in small batches
-- just after messages commit; search_state.messages_indexed_upto records how far, so a restart catches up.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TABLE `search_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`messages_indexed_upto` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `search_state` (`id`, `messages_indexed_upto`) VALUES (1, 0);
--> statement-breakpoint
-- Contact search by any part of the name or number (trigram), kept in step by triggers.
CREATE VIRTUAL TABLE `contacts_fts` USING fts5(name, number, content='contacts', content_rowid='id', tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_insert` AFTER INSERT ON `contacts` BEGIN
  INSERT INTO contacts_fts(rowid, name, number) VALUES (new.id, new.name, coalesce(new.number, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_delete` AFTER DELETE ON `contacts` BEGIN
  INSERT INTO contacts_fts(contacts_fts, rowid, name, number) VALUES ('delete', old.id, old.name, coalesce(old.number, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_fts_update` AFTER UPDATE OF `name`, `number` ON `contacts` BEGIN
  INSERT INTO contacts_fts(contacts_fts, rowid, name, number) VALUES ('delete', old.id, old.name, coalesce(old.number, ''));
  INSERT INTO contacts_fts(rowid, name, number) VALUES (new.id, new.name, coalesce(new.number, ''));
END;
--> statement-breakpoint
-- Ticket counts per company, status, queue, user and group flag, exact by construction.
CREATE TRIGGER `ticket_counts_insert` AFTER INSERT ON `tickets` BEGIN
  INSERT INTO ticket_counts(company_id, status, queue_id, user_id, is_group, count)
  VALUES (new.company_id, new.status, coalesce(new.queue_id, 0), coalesce(new.user_id, 0), new.is_group, 1)
  ON CONFLICT DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `ticket_counts_delete` AFTER DELETE ON `tickets` BEGIN
  UPDATE ticket_counts SET count = count - 1
   WHERE company_id = old.company_id AND status = old.status AND queue_id = coalesce(old.queue_id, 0)
     AND user_id = coalesce(old.user_id, 0) AND is_group = old.is_group;
END;
--> statement-breakpoint
CREATE TRIGGER `ticket_counts_update` AFTER UPDATE OF `status`, `queue_id`, `user_id`, `is_group` ON `tickets`
WHEN old.status IS NOT new.status OR old.queue_id IS NOT new.queue_id OR old.user_id IS NOT new.user_id
  OR old.is_group IS NOT new.is_group
BEGIN
  UPDATE ticket_counts SET count = count - 1
   WHERE company_id = old.company_id AND status = old.status AND queue_id = coalesce(old.queue_id, 0)
     AND user_id = coalesce(old.user_id, 0) AND is_group = old.is_group;
  INSERT INTO ticket_counts(company_id, status, queue_id, user_id, is_group, count)
  VALUES (new.company_id, new.status, coalesce(new.queue_id, 0), coalesce(new.user_id, 0), new.is_group, 1)
  ON CONFLICT DO UPDATE SET count = count + 1;
END;
