import { type } from 'arktype'
import {
  FILE_MESSAGE_MAX,
  FILE_NAME_MAX,
  FILE_NAME_MIN,
  FILE_OPTION_NAME_MAX,
  FILE_OPTIONS_MAX,
} from '../files'
import { pageQuery, text } from './common'

/**
 * One option of a file list: a name; `id` names an option the list already has (kept and renamed), without it
 * the option is new. `removeAttachment` drops the option's file. Attachments only ever arrive through
 * `POST /files/uploadList/{id}`, so no request names a stored file.
 */
export const fileOptionInput = type({
  '+': 'delete',
  'id?': '1 <= number.integer <= 9007199254740991',
  name: text(1, FILE_OPTION_NAME_MAX),
  'removeAttachment?': 'boolean',
})

/**
 * `POST /files` and `PUT /files/{id}`: name (3 or more characters), message (required, not blank), and the
 * options (those left out of a PUT are deleted).
 */
export const fileListBody = type({
  '+': 'delete',
  name: text(FILE_NAME_MIN, FILE_NAME_MAX),
  message: type(`string <= ${FILE_MESSAGE_MAX}`).narrow(
    (s, ctx) => s.trim() !== '' || ctx.mustBe('filled in'),
  ),
  'options?': fileOptionInput.array().atMostLength(FILE_OPTIONS_MAX),
})

export type FileListInput = typeof fileListBody.infer

/** `GET /files/`: search (name) and page. */
export const listFilesQuery = pageQuery

/**
 * `POST /files/uploadList/{id}`'s text fields: `fileId` and `typeArch` (fileList) as the spec sends them, and per
 * file its option's `id` (and `name`, `mediaType`), repeated in the files' order. Read with `formFields`,
 * a repeated field is its last value; the route reads the repeated ones itself.
 */
export const fileUploadFields = type({
  '+': 'delete',
  'fileId?': 'string <= 20',
  'typeArch?': 'string <= 50',
  'mediaType?': 'string <= 200',
  'name?': `string <= ${FILE_OPTION_NAME_MAX * 2}`,
  'id?': 'string <= 20',
})
