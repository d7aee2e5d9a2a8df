import { LifeBuoy } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import {
  HELP_DESCRIPTION_MAX,
  HELP_TITLE_MAX,
  HELP_VIDEO_INPUT_MAX,
  type HelpDto,
  youtubeVideoId,
} from '../../../shared/helps'
import { ApiError, api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { LiveListTab } from '../../components/LiveTableCard'
import { actionsColumn } from '../../components/RowActions'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import type { Column } from '../../components/ui/Table'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { useCrudListScreen } from '../../components/useListScreen'
import { cn } from '../../lib/cn'
import { toast } from '../../state/toast'
import { HelpThumbnail } from '../helps/HelpThumbnail'
import { helpsList } from '../helps/helpsList'

export type HelpForm = { title: string; description: string; video: string }

const EMPTY_HELP: HelpForm = { title: '', description: '', video: '' }

/** The client's check, the server's rules (src/shared/schemas/helps.ts) in the user's language. */
export function validateHelp(form: HelpForm, t: (k: string) => string): FieldErrors<HelpForm> {
  const errors: FieldErrors<HelpForm> = {}
  const title = form.title.trim()
  if (!title) errors.title = t('helps.required')
  else if (title.length > HELP_TITLE_MAX) errors.title = t('validation.tooLong')
  if (form.description.trim().length > HELP_DESCRIPTION_MAX) errors.description = t('validation.tooLong')
  if (!form.video.trim()) errors.video = t('helps.required')
  else if (!youtubeVideoId(form.video)) errors.video = t('helps.videoInvalid')
  return errors
}

/** Already told to the user (the spec's toast): the form shows the fields and adds no toast of its own. */
class Reported extends Error {
  override name = 'AbortError'
}

/**
 * Saves a help video. A failure is the spec's save message ('help variant': a help with the same name); a
 * taken title and the fields the server refused are also shown under their fields.
 */
async function saveHelp(id: number | undefined, form: HelpForm, t: (k: string) => string): Promise<HelpDto> {
  const body = { title: form.title.trim(), description: form.description.trim(), video: form.video.trim() }
  try {
    return id == null ? await api.post<HelpDto>('/helps', body) : await api.put<HelpDto>(`/helps/${id}`, body)
  } catch (err) {
    toast.error(t('helps.saveFailed'))
    if (err instanceof ApiError && err.code === 'ERR_HELP_DUPLICATED') {
      const message = t('helps.titleTaken')
      throw new ApiError(err.status, 'ERR_VALIDATION', message, [{ field: 'title', message }])
    }
    if (err instanceof ApiError && err.fields.length) throw err
    throw new Reported(errorMessage(err))
  }
}

function Thumb({ video, className }: { video: string; className?: string }) {
  return <HelpThumbnail video={video} className={cn('rounded-md', className ?? 'w-24')} />
}

export function HelpDialog({
  open,
  record,
  onClose,
  onSaved,
}: {
  open: boolean
  /** The help to edit; left out to add one. */
  record?: HelpDto
  onClose: () => void
  onSaved?: (help: HelpDto) => void
}) {
  const { t } = useTranslation()
  const creating = !record
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: record
      ? { title: record.title, description: record.description, video: record.video }
      : EMPTY_HELP,
    loadKey: record?.id,
    validate: (v) => validateHelp(v, t),
    save: (v) => saveHelp(record?.id, v, t),
    savedMessage: creating ? t('helps.created') : t('helps.saved'),
  })
  const { values, errors, set } = form
  const preview = youtubeVideoId(values.video)
  return (
    <FormDialog form={form} onClose={onClose} title={creating ? t('helps.addTitle') : t('helps.editTitle')}>
      <div className="flex flex-col gap-5">
        <Field label={t('helps.fieldTitle')} error={errors.title} required>
          <Input
            value={values.title}
            onChange={(e) => set('title', e.target.value)}
            maxLength={HELP_TITLE_MAX + 20}
            autoFocus
            autoComplete="off"
          />
        </Field>
        <Field label={t('helps.description')} error={errors.description}>
          <Textarea
            value={values.description}
            onChange={(e) => set('description', e.target.value)}
            rows={3}
            maxLength={HELP_DESCRIPTION_MAX + 20}
          />
        </Field>
        <Field label={t('helps.video')} error={errors.video} hint={t('helps.videoHint')} required>
          <Input
            value={values.video}
            onChange={(e) => set('video', e.target.value)}
            maxLength={HELP_VIDEO_INPUT_MAX}
            placeholder="https://www.youtube.com/watch?v=…"
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        {preview && (
          <div className="flex items-center gap-3">
            <Thumb video={preview} className="w-32" />
            <span className="font-mono text-muted text-xs">{preview}</span>
          </div>
        )}
      </div>
    </FormDialog>
  )
}

/**
 * Settings, Help tab (super users): the platform's help videos, searched and paged, with add, edit and delete
 * (the spec's confirmation). Every user watches them on /helps.
 */
export function HelpTab() {
  const { t } = useTranslation()
  const { list, crud, term, table, rowActions } = useCrudListScreen(helpsList, {
    deletePath: (help) => `/helps/${help.id}`,
    deleted: t('helps.deleted'),
    deleteFailed: () => t('helps.deleteFailed'),
  })
  const { upsert } = list
  const editing = crud.dialog?.id != null ? list.items.find((h) => h.id === crud.dialog?.id) : undefined

  const actions = (help: HelpDto) => rowActions(help, help.title)
  const titleCell = (help: HelpDto) => (
    <div className="min-w-0">
      <div className="truncate font-medium text-fg text-sm">{help.title}</div>
      {help.description && (
        <div className="truncate text-muted text-xs" title={help.description}>
          {help.description}
        </div>
      )}
    </div>
  )
  const columns: Column<HelpDto>[] = [
    {
      key: 'thumb',
      header: <span className="sr-only">{t('helps.video')}</span>,
      cell: (h) => <Thumb video={h.video} />,
      width: '120px',
    },
    { key: 'title', header: t('helps.fieldTitle'), cell: titleCell },
    {
      key: 'video',
      header: t('helps.video'),
      cell: (h) => <span className="font-mono text-muted text-xs">{h.video}</span>,
      width: '140px',
    },
    actionsColumn(actions, '96px'),
  ]
  const mobileCard = (help: HelpDto) => (
    <div className="flex items-center gap-3">
      <Thumb video={help.video} className="w-16" />
      <div className="min-w-0 flex-1">{titleCell(help)}</div>
      {actions(help)}
    </div>
  )

  return (
    <LiveListTab
      intro={t('helps.tabIntro')}
      {...table}
      searchLabel={t('helps.search')}
      add={{ label: t('helps.add'), onClick: crud.openAdd }}
      className="max-h-[60vh]"
      label={t('helps.tab')}
      rowKey={(h) => h.id}
      columns={columns}
      mobileCard={mobileCard}
      errorText={t('common.loadError')}
      noMatches={{ title: t('helps.emptySearchTitle'), text: t('helps.emptySearch', { term }) }}
      empty={{ icon: <LifeBuoy />, title: t('helps.emptyTabTitle'), text: t('helps.emptyTabText') }}
    >
      {crud.dialog && (
        <HelpDialog open record={editing} onClose={crud.closeDialog} onSaved={(help) => upsert(help)} />
      )}
      {crud.confirmDelete}
    </LiveListTab>
  )
}
