import { useSignals } from '@preact/signals-react/runtime'
import { CheckCircle2, Copy, FileUp, KeyRound, Lock, Send, TriangleAlert } from 'lucide-react'
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { planAllows } from '../../../shared/plans'
import { ApiError } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { Card, Page } from '../../components/layout/Page'
import { Badge } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'

export const SEND_PATH = '/api/messages/send'

/** Unmasked digits: country code, area code and number (what WhatsApp calls the number). */
export const NUMBER_PATTERN = /^\d{10,15}$/

export function numberError(number: string, t: (k: string) => string): string | undefined {
  const value = number.trim()
  if (!value) return t('messagesApi.numberRequired')
  if (!NUMBER_PATTERN.test(value)) return t('messagesApi.numberInvalid')
  return undefined
}

/** The curl commands the page shows, for this origin. */
export function curlText(origin: string) {
  return `curl -X POST '${origin}${SEND_PATH}' \\
  -H 'Authorization: Bearer SEU_TOKEN' \\
  -H 'Content-Type: application/json' \\
  -d '{"number": "5511999999999", "body": "Olá! Seu pedido saiu para entrega."}'`
}

export function curlMedia(origin: string) {
  return `curl -X POST '${origin}${SEND_PATH}' \\
  -H 'Authorization: Bearer SEU_TOKEN' \\
  -F 'number=5511999999999' \\
  -F 'body=Segue o comprovante' \\
  -F 'medias=@/caminho/comprovante.pdf'`
}

/** Sends through the real endpoint with the connection's token (not the signed-in user's session). */
async function sendWithToken(token: string, body: BodyInit, json: boolean): Promise<void> {
  const headers: Record<string, string> = { authorization: `Bearer ${token.trim()}` }
  if (json) headers['content-type'] = 'application/json'
  const res = await fetch(SEND_PATH, { method: 'POST', headers, body })
  if (res.ok) return
  let answer: { error?: string; message?: string; fields?: { field: string; message: string }[] } = {}
  try {
    answer = await res.json()
  } catch {}
  throw new ApiError(
    res.status,
    typeof answer.error === 'string' ? answer.error : null,
    answer.message ?? '',
    answer.fields ?? [],
  )
}

function CodeBlock({ code, label }: { code: string; label: string }) {
  const { t } = useTranslation()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code)
      toast.success(t('messagesApi.copied'))
    } catch {
      toast.error(t('messagesApi.copyFailed'))
    }
  }
  return (
    <figure
      className="m-0 min-w-0 overflow-hidden rounded-lg border border-border bg-surface-2"
      aria-label={label}
    >
      <figcaption className="flex items-center justify-between gap-2 border-border border-b py-1 pr-1 pl-3 text-muted text-xs">
        <span className="truncate">{label}</span>
        <IconButton
          size="sm"
          label={`${t('messagesApi.copy')}: ${label}`}
          icon={<Copy className="size-4" />}
          onClick={copy}
        />
      </figcaption>
      <pre className="overflow-x-auto p-3 font-mono text-[12.5px] text-fg leading-relaxed">
        <code>{code}</code>
      </pre>
    </figure>
  )
}

function FieldsTable({
  rows,
  headers,
}: {
  rows: [name: string, type: string, text: string][]
  headers?: [string, string, string]
}) {
  const { t } = useTranslation()
  const [a, b, c] = headers ?? [t('messagesApi.field'), t('messagesApi.type'), t('messagesApi.description')]
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-muted text-xs">
          <tr>
            <th className="py-1.5 pr-3 font-medium">{a}</th>
            <th className="py-1.5 pr-3 font-medium">{b}</th>
            <th className="py-1.5 font-medium">{c}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, type, text]) => (
            <tr key={name} className="border-border border-t align-top">
              <td className="py-2 pr-3 font-mono text-[13px] text-fg">{name}</td>
              <td className="py-2 pr-3 text-muted text-xs">{type}</td>
              <td className="py-2 text-fg">{text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <Card>
      <div className="flex flex-col gap-4 p-4 sm:p-5">
        <h2 id={id} className="font-semibold text-base text-fg">
          {title}
        </h2>
        {children}
      </div>
    </Card>
  )
}

type Outcome = { ok: true } | { ok: false; message: string } | null

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation()
  if (!outcome) return null
  return outcome.ok ? (
    <p role="status" className="inline-flex items-center gap-1.5 font-medium text-sm text-success">
      <CheckCircle2 className="size-4" aria-hidden />
      {t('messagesApi.sent')}
    </p>
  ) : (
    <p role="alert" className="inline-flex items-start gap-1.5 font-medium text-danger text-sm">
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      {outcome.message}
    </p>
  )
}

/** A tester: token and number, then the text (and a file for media), sent through the real endpoint. */
function Tester({ media }: { media: boolean }) {
  const { t } = useTranslation()
  const [token, setToken] = useState('')
  const [number, setNumber] = useState('')
  const [body, setBody] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [errors, setErrors] = useState<Record<string, string | undefined>>({})
  const [sending, setSending] = useState(false)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const fileId = useId()

  const validate = () => {
    const found: Record<string, string | undefined> = {}
    if (!token.trim()) found.token = t('messagesApi.tokenRequired')
    found.number = numberError(number, t)
    if (!media && !body.trim()) found.body = t('messagesApi.bodyRequired')
    if (media && !file) found.file = t('messagesApi.fileRequired')
    for (const k of Object.keys(found)) if (!found[k]) delete found[k]
    return found
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found = validate()
    setErrors(found)
    setOutcome(null)
    if (Object.keys(found).length) return
    setSending(true)
    try {
      if (media) {
        const form = new FormData()
        form.append('number', number.trim())
        if (body.trim()) form.append('body', body)
        form.append('medias', file as File, (file as File).name)
        await sendWithToken(token, form, false)
      } else {
        await sendWithToken(token, JSON.stringify({ number: number.trim(), body }), true)
      }
      setOutcome({ ok: true })
      toast.success(t('messagesApi.sent'))
    } catch (err) {
      const message =
        err instanceof ApiError && err.status === 401 ? t('messagesApi.badToken') : errorMessage(err)
      setOutcome({ ok: false, message })
      toast.error(message)
    } finally {
      setSending(false)
    }
  }

  const prefix = media ? 'media' : 'text'
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={media ? t('messagesApi.mediaTester') : t('messagesApi.textTester')}
      className="flex flex-col gap-4 rounded-lg border border-border border-dashed p-4"
    >
      <div className="flex items-center gap-2">
        <Badge tone="brand">{t('messagesApi.tester')}</Badge>
        <span className="text-muted text-xs">{t('messagesApi.testerHint')}</span>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('messagesApi.token')} error={errors.token} required>
          <Input
            name={`${prefix}-token`}
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            type="password"
          />
        </Field>
        <Field
          label={t('messagesApi.number')}
          error={errors.number}
          hint={t('messagesApi.numberHint')}
          required
        >
          <Input
            name={`${prefix}-number`}
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            inputMode="numeric"
            autoComplete="off"
            placeholder="5511999999999"
            maxLength={20}
          />
        </Field>
      </div>
      <Field
        label={media ? t('messagesApi.caption') : t('messagesApi.body')}
        error={errors.body}
        required={!media}
      >
        <Textarea name={`${prefix}-body`} value={body} onChange={(e) => setBody(e.target.value)} rows={3} />
      </Field>
      {media && (
        <Field label={t('messagesApi.file')} error={errors.file} required as="group">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <input
              id={fileId}
              ref={fileInput}
              type="file"
              className="sr-only"
              aria-label={t('messagesApi.file')}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
            <Button
              type="button"
              variant="secondary"
              icon={<FileUp className="size-4" />}
              onClick={() => fileInput.current?.click()}
            >
              {t('messagesApi.chooseFile')}
            </Button>
            <span className="min-w-0 truncate text-muted text-sm">
              {file?.name ?? t('messagesApi.noFile')}
            </span>
          </div>
        </Field>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" icon={<Send className="size-4" />} loading={sending} disabled={sending}>
          {t('messagesApi.send')}
        </Button>
        <OutcomeLine outcome={outcome} />
      </div>
    </form>
  )
}

/**
 * The messages API page (spec 3): how to send a text or a file to a number through POST /api/messages/send
 * with a connection's token, with curl examples for this server and a tester for each. Admins of a plan with
 * useExternalApi.
 */
export function MessagesApiPage() {
  useSignals()
  const { t } = useTranslation()
  if (!planAllows(currentUser.value?.company?.plan, 'useExternalApi'))
    return (
      <EmptyState
        className="flex-1 justify-center"
        icon={<Lock />}
        title={t('errors.ERR_PLAN_FEATURE_DISABLED')}
      >
        {t('messagesApi.noPlan')}
      </EmptyState>
    )
  const origin = window.location.origin
  return (
    <Page title={t('messagesApi.title')} subtitle={t('messagesApi.subtitle')}>
      <Section title={t('messagesApi.howTitle')}>
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <Badge tone="success">POST</Badge>
          <code className="min-w-0 break-all font-mono text-fg text-sm">
            {origin}
            {SEND_PATH}
          </code>
        </div>
        <ul className="flex flex-col gap-3 text-fg text-sm">
          <li className="flex gap-2.5">
            <KeyRound className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden />
            <span>
              {t('messagesApi.tokenText')}{' '}
              <Link to="/connections" className="font-medium text-primary underline-offset-2 hover:underline">
                {t('messagesApi.tokenLink')}
              </Link>
              .
            </span>
          </li>
          <li className="flex gap-2.5">
            <span className="mt-0.5 w-4 shrink-0 text-center font-semibold text-muted">#</span>
            <span>{t('messagesApi.numberText')}</span>
          </li>
          <li className="flex gap-2.5">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden />
            <span>{t('messagesApi.limitsText')}</span>
          </li>
        </ul>
      </Section>

      <div className="grid gap-4 lg:grid-cols-2">
        <Section title={t('messagesApi.textTitle')}>
          <p className="text-muted text-sm">{t('messagesApi.textIntro')}</p>
          <FieldsTable
            rows={[
              ['number', 'string', t('messagesApi.fieldNumber')],
              ['body', 'string', t('messagesApi.fieldBody')],
            ]}
          />
          <CodeBlock code={curlText(origin)} label={t('messagesApi.curlText')} />
          <Tester media={false} />
        </Section>
        <Section title={t('messagesApi.mediaTitle')}>
          <p className="text-muted text-sm">{t('messagesApi.mediaIntro')}</p>
          <FieldsTable
            rows={[
              ['number', 'string', t('messagesApi.fieldNumber')],
              ['body', 'string', t('messagesApi.fieldCaption')],
              ['medias', 'file', t('messagesApi.fieldMedias')],
            ]}
          />
          <CodeBlock code={curlMedia(origin)} label={t('messagesApi.curlMedia')} />
          <Tester media />
        </Section>
      </div>

      <Section title={t('messagesApi.answersTitle')}>
        <p className="text-fg text-sm">{t('messagesApi.answerOk')}</p>
        <CodeBlock
          code={`{ "message": "Message sent", "ticketId": 42, "contactId": 17, "messages": [ … ] }`}
          label={t('messagesApi.answerExample')}
        />
        <FieldsTable
          headers={[t('messagesApi.status'), t('messagesApi.code'), t('messagesApi.description')]}
          rows={[
            ['401', 'ERR_INVALID_TOKEN', t('messagesApi.err401')],
            ['403', 'ERR_PLAN_FEATURE_DISABLED', t('messagesApi.err403')],
            ['400', 'ERR_WAPP_INVALID_CONTACT', t('messagesApi.err400')],
            ['409', 'ERR_WAPP_NOT_INITIALIZED', t('messagesApi.errNotConnected')],
            ['429', 'ERR_TOO_MANY_ATTEMPTS', t('messagesApi.err429')],
            ['502', 'ERR_SENDING_WAPP_MSG', t('messagesApi.err502')],
          ]}
        />
      </Section>
    </Page>
  )
}
