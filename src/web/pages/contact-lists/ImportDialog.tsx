import { CheckCircle2, Download, FileSpreadsheet, Upload, XCircle } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SpreadsheetImportDto } from '../../../shared/contact-lists'
import { api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { subscribe } from '../../api/live'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { downloadFile } from './lists'

/** How often the dialog asks for the job while it runs (live events move it in between). */
export const IMPORT_POLL_MS = 1000

/**
 * Upload a spreadsheet (.xls or .xlsx) and follow the import: a progress bar (live `spreadsheetImport`, and a
 * poll of the job), then the counts and the rows refused with their reasons. Used by a contact list's items
 * (`POST /contact-lists/{id}/upload`) and by the contacts screen (`POST /contacts/import`).
 */
export function ImportDialog({
  open,
  onClose,
  uploadPath,
  jobPath,
  onDone,
  showSample = true,
}: {
  open: boolean
  onClose: () => void
  uploadPath: string
  /** The job's address from its id. */
  jobPath: (id: number) => string
  onDone?: (job: SpreadsheetImportDto) => void
  /** The sample's address is an admin's (contact lists); the contacts screen shows it to admins only. */
  showSample?: boolean
}) {
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  const [file, setFile] = useState<File | null>(null)
  const [job, setJob] = useState<SpreadsheetImportDto | null>(null)
  const [sending, setSending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const finished = job?.state === 'done' || job?.state === 'failed'
  const doneRef = useRef(onDone)
  doneRef.current = onDone

  useEffect(() => {
    if (!job || finished) return
    const companyId = currentUser.peek()?.companyId
    const off = companyId
      ? subscribe(`company-${companyId}-spreadsheetImport`, (data) => {
          if (data.job.id === job.id) setJob(data.job)
        })
      : () => {}
    const timer = setTimeout(() => {
      api
        .get<SpreadsheetImportDto>(jobPath(job.id))
        .then(setJob)
        .catch(() => {})
    }, IMPORT_POLL_MS)
    return () => {
      off()
      clearTimeout(timer)
    }
  }, [job, finished, jobPath])

  useEffect(() => {
    if (job && finished) doneRef.current?.(job)
  }, [job, finished])

  const start = async () => {
    if (!file) return
    setSending(true)
    setError(null)
    try {
      const form = new FormData()
      form.append('file', file, file.name)
      setJob(await api.post<SpreadsheetImportDto>(uploadPath, form))
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setSending(false)
    }
  }

  const percent = job && job.total > 0 ? Math.round((job.processed / job.total) * 100) : job ? 100 : 0

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('contactLists.importTitle')}
      size="md"
      footer={
        <div className="flex w-full items-center justify-between gap-2">
          {showSample ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              icon={<Download className="size-4" />}
              onClick={() =>
                downloadFile('/contact-lists/sample', 'contatos-exemplo.xlsx').catch((err) =>
                  toast.error(errorMessage(err)),
                )
              }
            >
              {t('contactLists.sample')}
            </Button>
          ) : (
            <span />
          )}
          <div className="flex gap-2">
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('common.close')}
            </Button>
            {!job && (
              <Button
                type="button"
                icon={<Upload className="size-4" />}
                disabled={!file}
                loading={sending}
                onClick={start}
              >
                {t('contactLists.importStart')}
              </Button>
            )}
          </div>
        </div>
      }
    >
      <div className="flex flex-col gap-4">
        <p className="text-muted text-sm">{t('contactLists.importHint')}</p>
        {!job && (
          <div className="flex items-center gap-2">
            <Button
              type="button"
              variant="secondary"
              size="sm"
              icon={<FileSpreadsheet className="size-4" />}
              onClick={() => input.current?.click()}
            >
              {t('contactLists.chooseFile')}
            </Button>
            <span className="truncate text-sm">{file?.name ?? t('contactLists.noFile')}</span>
            <input
              ref={input}
              type="file"
              hidden
              accept=".xls,.xlsx,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              data-testid="import-file"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null)
                e.target.value = ''
              }}
            />
          </div>
        )}
        {error && (
          <p role="alert" className="text-danger text-sm">
            {error}
          </p>
        )}
        {job && (
          <div className="flex flex-col gap-3">
            <div
              role="progressbar"
              aria-label={t('contactLists.progress')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 w-full overflow-hidden rounded-full bg-surface-3"
            >
              <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
            </div>
            <p className="text-sm">
              {t('contactLists.progressText', { processed: job.processed, total: job.total })}
            </p>
            {job.state === 'done' && (
              <p className="flex items-center gap-2 text-sm">
                <CheckCircle2 className="size-4 text-success" aria-hidden />
                {t('contactLists.importDone', {
                  created: job.created,
                  updated: job.updated,
                  rejected: job.rejectedCount,
                })}
              </p>
            )}
            {job.state === 'failed' && (
              <p role="alert" className="flex items-center gap-2 text-danger text-sm">
                <XCircle className="size-4" aria-hidden />
                {t('contactLists.importFailed')}
              </p>
            )}
            {finished && job.rejected.length > 0 && (
              <div className="max-h-56 overflow-auto rounded-lg border border-border">
                <table className="w-full text-sm" aria-label={t('contactLists.rejectedTitle')}>
                  <thead>
                    <tr className="text-left text-muted">
                      <th className="px-3 py-1.5">{t('contactLists.row')}</th>
                      <th className="px-3 py-1.5">{t('contactLists.reason')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {job.rejected.map((r) => (
                      <tr key={`${r.row}-${r.field}`} className="border-border border-t">
                        <td className="px-3 py-1.5 tabular-nums">{r.row}</td>
                        <td className="px-3 py-1.5">
                          {t(`contactLists.field.${r.field}`)}: {t(`contactLists.reasons.${r.reason}`)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {job.rejectedCount > job.rejected.length && (
                  <p className="px-3 py-1.5 text-muted text-xs">
                    {t('contactLists.moreRejected', { count: job.rejectedCount - job.rejected.length })}
                  </p>
                )}
              </div>
            )}
          </div>
        )}
      </div>
    </Dialog>
  )
}
