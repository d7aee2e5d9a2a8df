import type { TFunction } from 'i18next'
import { Volume2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import {
  isHttpUrl,
  PROMPT_DEFAULTS,
  PROMPT_KEY_MAX,
  PROMPT_MAX_MESSAGES,
  PROMPT_MAX_TOKENS,
  PROMPT_MODEL_MAX,
  PROMPT_NAME_MAX,
  PROMPT_REGION_MAX,
  PROMPT_TEMPERATURE_MAX,
  PROMPT_TEXT_MAX,
  PROMPT_URL_MAX,
  PROMPT_VOICES,
  type PromptDto,
  type PromptVoice,
  voiceLabel,
} from '../../../shared/prompts'
import { FormSkeleton } from '../../components/FormSkeleton'
import { loadRecord, type RecordDialogProps, saveRecord } from '../../components/recordDialog'
import { Button } from '../../components/ui/Button'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Select } from '../../components/ui/Select'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { useLiveList } from '../../state/liveList'
import { queuesList } from '../../state/queues'

/** A stored key as the form holds it: never the key itself, only its mask and whether to replace or remove it. */
type KeyState = { mask: string; set: boolean; value: string; remove: boolean }

export type PromptForm = {
  name: string
  prompt: string
  queueId: number | null
  maxTokens: string
  temperature: string
  maxMessages: string
  voice: PromptVoice
  voiceKey: KeyState
  voiceRegion: string
  apiKey: KeyState
  baseUrl: string
  model: string
}

const NO_KEY: KeyState = { mask: '', set: false, value: '', remove: false }

export const EMPTY_PROMPT: PromptForm = {
  name: '',
  prompt: '',
  queueId: null,
  maxTokens: String(PROMPT_DEFAULTS.maxTokens),
  temperature: String(PROMPT_DEFAULTS.temperature),
  maxMessages: String(PROMPT_DEFAULTS.maxMessages),
  voice: PROMPT_DEFAULTS.voice,
  voiceKey: NO_KEY,
  voiceRegion: '',
  apiKey: NO_KEY,
  baseUrl: '',
  model: '',
}

function formOf(r: PromptDto): PromptForm {
  return {
    name: r.name,
    prompt: r.prompt,
    queueId: r.queueId,
    maxTokens: String(r.maxTokens),
    temperature: String(r.temperature),
    maxMessages: String(r.maxMessages),
    voice: r.voice,
    voiceKey: { mask: r.voiceKey, set: r.voiceKeySet, value: '', remove: false },
    voiceRegion: r.voiceRegion,
    apiKey: { mask: r.apiKey, set: r.apiKeySet, value: '', remove: false },
    baseUrl: r.baseUrl,
    model: r.model,
  }
}

const numberOr = (text: string, fallback: number) => {
  const n = Number(text.trim().replace(',', '.'))
  return text.trim() !== '' && Number.isFinite(n) ? n : fallback
}

/** A key in the body: left out to keep the stored one, '' to remove it, or the new one typed. */
function keyOf(k: KeyState): string | undefined {
  if (k.remove) return ''
  const typed = k.value.trim()
  return typed ? typed : undefined
}

/** The body of POST / PUT /api/prompt. */
export function promptBodyOf(f: PromptForm) {
  return {
    name: f.name.trim(),
    prompt: f.prompt.trim(),
    queueId: f.queueId,
    maxTokens: numberOr(f.maxTokens, PROMPT_DEFAULTS.maxTokens),
    temperature: numberOr(f.temperature, PROMPT_DEFAULTS.temperature),
    maxMessages: numberOr(f.maxMessages, PROMPT_DEFAULTS.maxMessages),
    voice: f.voice,
    voiceKey: keyOf(f.voiceKey),
    voiceRegion: f.voiceRegion.trim(),
    apiKey: keyOf(f.apiKey),
    baseUrl: f.baseUrl.trim(),
    model: f.model.trim(),
  }
}

const intIn = (text: string, min: number, max: number) => {
  const n = Number(text.trim())
  return text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max
}

/** The spec's 'Informe o setor' for a missing queue; the server's other rules with their own messages. */
export function validatePrompt(f: PromptForm, t: TFunction): FieldErrors<PromptForm> {
  const errors: FieldErrors<PromptForm> = {}
  if (!f.name.trim()) errors.name = t('prompts.required')
  else if (f.name.trim().length > PROMPT_NAME_MAX) errors.name = t('prompts.tooLong')
  if (!f.prompt.trim()) errors.prompt = t('prompts.required')
  if (f.queueId == null) errors.queueId = t('prompts.queueRequired')
  if (!intIn(f.maxTokens, 1, PROMPT_MAX_TOKENS))
    errors.maxTokens = t('prompts.badInteger', { min: 1, max: PROMPT_MAX_TOKENS })
  const temperature = Number(f.temperature.trim().replace(',', '.'))
  if (f.temperature.trim() === '' || !(temperature >= 0 && temperature <= PROMPT_TEMPERATURE_MAX))
    errors.temperature = t('prompts.badTemperature')
  if (!intIn(f.maxMessages, 1, PROMPT_MAX_MESSAGES))
    errors.maxMessages = t('prompts.badInteger', { min: 1, max: PROMPT_MAX_MESSAGES })
  const url = f.baseUrl.trim()
  if (url && !isHttpUrl(url)) errors.baseUrl = t('prompts.badUrl')
  return errors
}

/** A secret field: the stored key shows only as its mask; typing replaces it, Remove takes it away. */
function KeyField({
  label,
  hint,
  value,
  onChange,
}: {
  label: string
  hint?: string
  value: KeyState
  onChange: (k: KeyState) => void
}) {
  const { t } = useTranslation()
  const stored = value.set && !value.remove
  return (
    <Field
      label={label}
      hint={
        value.remove
          ? t('prompts.keyWillBeRemoved')
          : stored
            ? t('prompts.keyStored', { mask: value.mask })
            : hint
      }
    >
      <div className="flex items-center gap-2">
        <Input
          type="password"
          value={value.value}
          onChange={(e) => onChange({ ...value, value: e.target.value, remove: false })}
          placeholder={stored ? value.mask : ''}
          autoComplete="new-password"
          spellCheck={false}
          maxLength={PROMPT_KEY_MAX}
          disabled={value.remove}
        />
        {value.set && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => onChange({ ...value, value: '', remove: !value.remove })}
          >
            {value.remove ? t('prompts.keepKey') : t('prompts.removeKey')}
          </Button>
        )}
      </div>
    </Field>
  )
}

export function PromptDialog({ open, recordId, onClose, onSaved }: RecordDialogProps<PromptDto>) {
  const { t } = useTranslation()
  const creating = recordId == null
  const queues = useLiveList(queuesList, undefined, { enabled: open }).items
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_PROMPT,
    load: loadRecord('/prompt', recordId, formOf),
    loadKey: recordId,
    validate: (v) => validatePrompt(v, t),
    save: (v) => saveRecord<PromptDto>('/prompt', recordId, promptBodyOf(v)),
    savedMessage: creating ? t('prompts.created') : t('prompts.saved'),
  })
  const { values, errors, set } = form
  const voiceOptions = PROMPT_VOICES.map((v) => ({
    value: v,
    label: v === 'texto' ? t('prompts.voiceText') : voiceLabel(v),
  }))

  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('prompts.addTitle') : t('prompts.editTitle')}
      size="lg"
      skeleton={<FormSkeleton bars={['h-10 w-full', 'h-40 w-full', 'h-10 w-2/3']} />}
    >
      <div className="flex flex-col gap-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('prompts.name')} error={errors.name} required>
            <Input
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              autoFocus
              autoComplete="off"
              maxLength={PROMPT_NAME_MAX + 10}
            />
          </Field>
          <Field label={t('prompts.queue')} error={errors.queueId} required>
            <Select
              value={values.queueId}
              onChange={(v) => set('queueId', v)}
              options={queues.map((q) => ({ value: q.id, label: q.name, color: q.color }))}
              placeholder={t('prompts.queuePlaceholder')}
              aria-label={t('prompts.queue')}
            />
          </Field>
        </div>
        <Field label={t('prompts.prompt')} error={errors.prompt} hint={t('prompts.promptHint')} required>
          <Textarea
            value={values.prompt}
            onChange={(e) => set('prompt', e.target.value)}
            rows={7}
            maxLength={PROMPT_TEXT_MAX}
          />
        </Field>
        <KeyField
          label={t('prompts.apiKey')}
          hint={t('prompts.apiKeyHint')}
          value={values.apiKey}
          onChange={(k) => set('apiKey', k)}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label={t('prompts.maxTokens')} error={errors.maxTokens} hint={t('prompts.maxTokensHint')}>
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={PROMPT_MAX_TOKENS}
              value={values.maxTokens}
              onChange={(e) => set('maxTokens', e.target.value)}
            />
          </Field>
          <Field
            label={t('prompts.temperature')}
            error={errors.temperature}
            hint={t('prompts.temperatureHint')}
          >
            <Input
              type="number"
              inputMode="decimal"
              min={0}
              max={PROMPT_TEMPERATURE_MAX}
              step={0.1}
              value={values.temperature}
              onChange={(e) => set('temperature', e.target.value)}
            />
          </Field>
          <Field
            label={t('prompts.maxMessages')}
            error={errors.maxMessages}
            hint={t('prompts.maxMessagesHint')}
          >
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={PROMPT_MAX_MESSAGES}
              value={values.maxMessages}
              onChange={(e) => set('maxMessages', e.target.value)}
            />
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('prompts.model')} hint={t('prompts.modelHint')}>
            <Input
              value={values.model}
              onChange={(e) => set('model', e.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder="gpt-4o-mini"
              maxLength={PROMPT_MODEL_MAX}
            />
          </Field>
          <Field label={t('prompts.baseUrl')} error={errors.baseUrl} hint={t('prompts.baseUrlHint')}>
            <Input
              value={values.baseUrl}
              onChange={(e) => set('baseUrl', e.target.value)}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://api.openai.com/v1"
              maxLength={PROMPT_URL_MAX}
            />
          </Field>
        </div>
        <fieldset className="rounded-lg border border-border p-4">
          <legend className="flex items-center gap-1.5 px-1 font-medium text-fg text-sm">
            <Volume2 className="size-4 text-muted" aria-hidden />
            {t('prompts.voiceSection')}
          </legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={t('prompts.voice')} hint={t('prompts.voiceHint')}>
              <Select
                value={values.voice}
                onChange={(v) => set('voice', v)}
                options={voiceOptions}
                aria-label={t('prompts.voice')}
              />
            </Field>
            <Field label={t('prompts.voiceRegion')}>
              <Input
                value={values.voiceRegion}
                onChange={(e) => set('voiceRegion', e.target.value)}
                autoComplete="off"
                spellCheck={false}
                placeholder="brazilsouth"
                maxLength={PROMPT_REGION_MAX}
              />
            </Field>
            <div className="sm:col-span-2">
              <KeyField
                label={t('prompts.voiceKey')}
                value={values.voiceKey}
                onChange={(k) => set('voiceKey', k)}
              />
            </div>
          </div>
        </fieldset>
      </div>
    </FormDialog>
  )
}
