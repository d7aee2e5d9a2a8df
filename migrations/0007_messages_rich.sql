CREATE INDEX `messages_rich` ON `messages` (`ticket_id`,`id`) WHERE (media_path IS NOT NULL OR media_name IS NOT NULL OR media_mime IS NOT NULL
  OR media_size IS NOT NULL OR old_messages IS NOT NULL OR quoted_msg_id IS NOT NULL
  OR participant_name IS NOT NULL OR send_error IS NOT NULL OR ptt <> 0 OR is_deleted <> 0 OR is_edited <> 0
  OR is_private <> 0);