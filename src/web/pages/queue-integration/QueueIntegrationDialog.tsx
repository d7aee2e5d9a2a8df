import type { TFunction } from 'i18next'
import { FlaskConical } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  INTEGRATION_DEFAULTS,
  INTEGRATION_JSON_MAX,
  INTEGRATION_KEYWORD_MAX,
  INTEGRATION_LANGUAGES,
  INTEGRATION_MESSAGE_MAX,
  INTEGRATION_NAME_MAX,
  INTEGRATION_NAME_MIN,
  INTEGRATION_PROJECT_MAX,
  INTEGRATION_SLUG_MAX,
  INTEGRATION_TYPES,
  INTEGRATION_URL_MAX,
  type IntegrationLanguage,
  type IntegrationType,
  isHttpUrl,
  type QueueIntegrationDto,
  TYPEBOT_DELAY_MAX,
  TYPEBOT_EXPIRES_MAX,
  usesUrl,
} from '../../../shared/queue-integrations'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { loadRecord, type RecordDialogProps, saveRecord } from '../../components/recordDialog'
import { Button } from '../../components/ui/Button'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Select } from '../../components/ui/Select'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { toast } from '../../state/toast'
import { IntegrationLogo } from './IntegrationLogo'

export type IntegrationForm = {
  type: IntegrationType
  name: string
  projectName: string
  jsonContent: string
  language: IntegrationLanguage
  urlN8N: string
  typebotSlug: string
  typebotExpires: string
  typebotDelayMessage: string
  typebotKeywordFinish: string
  typebotKeywordRestart: string
  typebotRestartMessage: string
  typebotUnknownMessage: string
}

export const EMPTY_INTEGRATION: IntegrationForm = {
  type: 'typebot',
  name: '',
  projectName: '',
  jsonContent: '',
  language: INTEGRATION_DEFAULTS.language,
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: String(INTEGRATION_DEFAULTS.typebotExpires),
  typebotDelayMessage: String(INTEGRATION_DEFAULTS.typebotDelayMessage),
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
}

function formOf(r: QueueIntegrationDto): IntegrationForm {
  return {
    type: r.type,
    name: r.name,
    projectName: r.projectName,
    jsonContent: r.jsonContent,
    language: r.language,
    urlN8N: r.urlN8N,
    typebotSlug: r.typebotSlug,
    typebotExpires: String(r.typebotExpires),
    typebotDelayMessage: String(r.typebotDelayMessage),
    typebotKeywordFinish: r.typebotKeywordFinish,
    typebotKeywordRestart: r.typebotKeywordRestart,
    typebotRestartMessage: r.typebotRestartMessage,
    typebotUnknownMessage: r.typebotUnknownMessage,
  }
}

const intOr = (text: string, fallback: number) => {
  const n = Number(text.trim())
  return text.trim() !== '' && Number.isInteger(n) ? n : fallback
}

/** The body of POST / PUT /api/queueIntegration: for n8n, webhook and typebot the name is the project name. */
export function integrationBodyOf(f: IntegrationForm) {
  const name = f.name.trim()
  const base = { type: f.type, name, language: f.language }
  if (f.type === 'dialogflow')
    return { ...base, projectName: f.projectName.trim(), jsonContent: f.jsonContent }
  const web = { ...base, projectName: name, urlN8N: f.urlN8N.trim() }
  if (f.type !== 'typebot') return web
  return {
    ...web,
    typebotSlug: f.typebotSlug.trim(),
    typebotExpires: intOr(f.typebotExpires, INTEGRATION_DEFAULTS.typebotExpires),
    typebotDelayMessage: intOr(f.typebotDelayMessage, INTEGRATION_DEFAULTS.typebotDelayMessage),
    typebotKeywordFinish: f.typebotKeywordFinish.trim(),
    typebotKeywordRestart: f.typebotKeywordRestart.trim(),
    typebotRestartMessage: f.typebotRestartMessage,
    typebotUnknownMessage: f.typebotUnknownMessage,
  }
}

const inRange = (text: string, max: number) => {
  const n = Number(text.trim())
  return text.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= max
}

export function validateIntegration(f: IntegrationForm, t: TFunction) {
  const errors: FieldErrors<IntegrationForm> = {}
  const name = f.name.trim()
  if (!name) errors.name = t('queueIntegrations.required')
  else if (name.length < INTEGRATION_NAME_MIN) errors.name = t('queueIntegrations.tooShort')
  else if (name.length > INTEGRATION_NAME_MAX) errors.name = t('queueIntegrations.tooLong')
  if (usesUrl(f.type)) {
    const url = f.urlN8N.trim()
    if (!url) errors.urlN8N = t('queueIntegrations.required')
    else if (url.length > INTEGRATION_URL_MAX || !isHttpUrl(url))
      errors.urlN8N = t('queueIntegrations.badUrl')
  }
  if (f.type === 'typebot') {
    if (!f.typebotSlug.trim()) errors.typebotSlug = t('queueIntegrations.required')
    else if (/[/?#\s]/.test(f.typebotSlug.trim())) errors.typebotSlug = t('queueIntegrations.badSlug')
    if (!inRange(f.typebotExpires, TYPEBOT_EXPIRES_MAX))
      errors.typebotExpires = t('queueIntegrations.badNumber', { max: TYPEBOT_EXPIRES_MAX })
    if (!inRange(f.typebotDelayMessage, TYPEBOT_DELAY_MAX))
      errors.typebotDelayMessage = t('queueIntegrations.badNumber', { max: TYPEBOT_DELAY_MAX })
  }
  if (f.type === 'dialogflow') {
    if (!f.jsonContent.trim()) errors.jsonContent = t('queueIntegrations.required')
    else {
      try {
        const parsed = JSON.parse(f.jsonContent)
        if (!parsed?.client_email || !parsed?.private_key || !parsed?.project_id)
          errors.jsonContent = t('queueIntegrations.badJson')
      } catch {
        errors.jsonContent = t('queueIntegrations.badJson')
      }
    }
  }
  return errors
}

export function QueueIntegrationDialog({
  open,
  recordId,
  onClose,
  onSaved,
}: RecordDialogProps<QueueIntegrationDto>) {
  const { t } = useTranslation()
  const creating = recordId == null
  const [testing, setTesting] = useState(false)
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_INTEGRATION,
    load: loadRecord('/queueIntegration', recordId, formOf),
    loadKey: recordId,
    validate: (v) => validateIntegration(v, t),
    save: (v) => saveRecord<QueueIntegrationDto>('/queueIntegration', recordId, integrationBodyOf(v)),
    savedMessage: creating ? t('queueIntegrations.created') : t('queueIntegrations.saved'),
  })
  const { values, errors, set } = form

  const testSession = async () => {
    const found = validateIntegration(values, t)
    if (found.jsonContent) {
      toast.error(found.jsonContent)
      return
    }
    setTesting(true)
    try {
      await api.post('/queueIntegration/testSession', {
        projectName: values.projectName.trim() || undefined,
        jsonContent: values.jsonContent,
        language: values.language,
        ...(recordId != null ? { id: recordId } : {}),
      })
      toast.success(t('queueIntegrations.tested'))
    } catch (err) {
      toastError(err)
    } finally {
      setTesting(false)
    }
  }

  const typeOptions = INTEGRATION_TYPES.map((type) => ({
    value: type,
    label: t(`queueIntegrations.types.${type}`),
  }))
  const languageOptions = INTEGRATION_LANGUAGES.map((l) => ({
    value: l,
    label: t(`queueIntegrations.languages.${l}`),
  }))

  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('queueIntegrations.addTitle') : t('queueIntegrations.editTitle')}
      size="md"
    >
      <div className="flex flex-col gap-5">
        <div className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_1fr]">
          <Field label={t('queueIntegrations.type')} required>
            <div className="flex items-center gap-2">
              <IntegrationLogo type={values.type} className="size-10" />
              <Select
                value={values.type}
                onChange={(v) => set('type', v)}
                options={typeOptions}
                aria-label={t('queueIntegrations.type')}
              />
            </div>
          </Field>
          <Field label={t('queueIntegrations.name')} error={errors.name} required>
            <Input
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              autoFocus
              autoComplete="off"
              maxLength={INTEGRATION_NAME_MAX + 10}
            />
          </Field>
        </div>

        {values.type === 'dialogflow' && (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('queueIntegrations.projectName')} hint={t('queueIntegrations.projectNameHint')}>
                <Input
                  value={values.projectName}
                  onChange={(e) => set('projectName', e.target.value)}
                  autoComplete="off"
                  maxLength={INTEGRATION_PROJECT_MAX}
                />
              </Field>
              <Field label={t('queueIntegrations.language')}>
                <Select
                  value={values.language}
                  onChange={(v) => set('language', v)}
                  options={languageOptions}
                  aria-label={t('queueIntegrations.language')}
                />
              </Field>
            </div>
            <Field
              label={t('queueIntegrations.jsonContent')}
              error={errors.jsonContent}
              hint={t('queueIntegrations.jsonContentHint')}
              required
            >
              <Textarea
                value={values.jsonContent}
                onChange={(e) => set('jsonContent', e.target.value)}
                rows={7}
                spellCheck={false}
                className="font-mono text-xs"
                maxLength={INTEGRATION_JSON_MAX}
              />
            </Field>
            <div>
              <Button
                type="button"
                variant="secondary"
                icon={<FlaskConical className="size-4" />}
                onClick={testSession}
                disabled={testing}
              >
                {testing ? t('queueIntegrations.testing') : t('queueIntegrations.test')}
              </Button>
            </div>
          </>
        )}

        {usesUrl(values.type) && (
          <Field
            label={values.type === 'typebot' ? t('queueIntegrations.typebotUrl') : t('queueIntegrations.url')}
            error={errors.urlN8N}
            hint={
              values.type === 'typebot'
                ? t('queueIntegrations.typebotUrlHint')
                : t('queueIntegrations.urlHint')
            }
            required
          >
            <Input
              value={values.urlN8N}
              onChange={(e) => set('urlN8N', e.target.value)}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://"
              maxLength={INTEGRATION_URL_MAX}
            />
          </Field>
        )}

        {values.type === 'typebot' && (
          <>
            <Field label={t('queueIntegrations.typebotSlug')} error={errors.typebotSlug} required>
              <Input
                value={values.typebotSlug}
                onChange={(e) => set('typebotSlug', e.target.value)}
                autoComplete="off"
                maxLength={INTEGRATION_SLUG_MAX}
              />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label={t('queueIntegrations.typebotExpires')}
                error={errors.typebotExpires}
                hint={t('queueIntegrations.typebotExpiresHint')}
              >
                <Input
                  value={values.typebotExpires}
                  onChange={(e) => set('typebotExpires', e.target.value)}
                  type="number"
                  min={0}
                  max={TYPEBOT_EXPIRES_MAX}
                />
              </Field>
              <Field
                label={t('queueIntegrations.typebotDelayMessage')}
                error={errors.typebotDelayMessage}
                hint={t('queueIntegrations.typebotDelayHint')}
              >
                <Input
                  value={values.typebotDelayMessage}
                  onChange={(e) => set('typebotDelayMessage', e.target.value)}
                  type="number"
                  min={0}
                  max={TYPEBOT_DELAY_MAX}
                  step={100}
                />
              </Field>
              <Field label={t('queueIntegrations.typebotKeywordFinish')}>
                <Input
                  value={values.typebotKeywordFinish}
                  onChange={(e) => set('typebotKeywordFinish', e.target.value)}
                  autoComplete="off"
                  maxLength={INTEGRATION_KEYWORD_MAX}
                />
              </Field>
              <Field label={t('queueIntegrations.typebotKeywordRestart')}>
                <Input
                  value={values.typebotKeywordRestart}
                  onChange={(e) => set('typebotKeywordRestart', e.target.value)}
                  autoComplete="off"
                  maxLength={INTEGRATION_KEYWORD_MAX}
                />
              </Field>
            </div>
            <Field label={t('queueIntegrations.typebotRestartMessage')}>
              <Input
                value={values.typebotRestartMessage}
                onChange={(e) => set('typebotRestartMessage', e.target.value)}
                maxLength={INTEGRATION_MESSAGE_MAX}
              />
            </Field>
            <Field label={t('queueIntegrations.typebotUnknownMessage')}>
              <Input
                value={values.typebotUnknownMessage}
                onChange={(e) => set('typebotUnknownMessage', e.target.value)}
                maxLength={INTEGRATION_MESSAGE_MAX}
              />
            </Field>
          </>
        )}
      </div>
    </FormDialog>
  )
}
