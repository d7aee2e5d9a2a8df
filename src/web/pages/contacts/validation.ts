import type { ContactDto } from '../../../shared/api'
import { contactBody } from '../../../shared/schemas/contacts'
import { schemaErrors } from '../../components/ui/schemaErrors'

export type ExtraInfoRow = { id?: number; name: string; value: string }

export type ContactForm = {
  name: string
  number: string
  email: string
  disableBot: boolean
  extraInfo: ExtraInfoRow[]
}

export const EMPTY_CONTACT: ContactForm = {
  name: '',
  number: '',
  email: '',
  disableBot: false,
  extraInfo: [],
}

export function formFromContact(c: ContactDto): ContactForm {
  return {
    name: c.name ?? '',
    number: c.number ?? '',
    email: c.email ?? '',
    disableBot: !!c.disableBot,
    extraInfo: (c.extraInfo ?? []).map((x) => ({ id: x.id, name: x.name, value: x.value ?? '' })),
  }
}

const filled = (row: ExtraInfoRow) => row.name.trim() !== '' || row.value.trim() !== ''

/** The body of POST /api/contacts and PUT /api/contacts/{id}; extra-info rows left empty are dropped. */
export function contactBodyOf(form: ContactForm): Record<string, unknown> {
  return {
    name: form.name.trim(),
    number: form.number.trim(),
    email: form.email.trim(),
    disableBot: form.disableBot,
    extraInfo: form.extraInfo
      .filter(filled)
      .map((row) => ({ ...(row.id ? { id: row.id } : {}), name: row.name.trim(), value: row.value.trim() })),
  }
}

export type ContactFormErrors = Partial<Record<keyof ContactForm, string>>

/** Per extra-info row, the message under its name: a row with a value needs a name. */
export function extraInfoRowErrors(rows: ExtraInfoRow[], t: (key: string) => string): Record<number, string> {
  const out: Record<number, string> = {}
  rows.forEach((row, i) => {
    if (filled(row) && !row.name.trim()) out[i] = t('validation.required')
    else if (row.name.trim().length > 100) out[i] = t('contacts.tooLong')
  })
  return out
}

/**
 * The shared schema (src/shared/schemas/contacts.ts: name 2 to 50, number 8 to 50, e-mail valid) with the spec's
 * messages: 'Obrigatório', 'Muito curto!', 'Demasiado longo!', 'E-mail inválido'. `extraInfo` is set when a row
 * is wrong (the rows' own messages come from extraInfoRowErrors).
 */
export function validateContact(form: ContactForm, t: (key: string) => string): ContactFormErrors {
  const errors: ContactFormErrors = schemaErrors<keyof ContactForm>(contactBody(contactBodyOf(form)), t)
  const tooLong = t('validation.tooLong')
  for (const field of ['name', 'number', 'email'] as const)
    if (errors[field] === tooLong) errors[field] = t('contacts.tooLong')
  const rows = extraInfoRowErrors(form.extraInfo, t)
  if (Object.keys(rows).length) errors.extraInfo = Object.values(rows)[0]
  else delete errors.extraInfo
  return errors
}
