import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { useSignals } from '@preact/signals-react/runtime'
import { Volume1, Volume2, VolumeX } from 'lucide-react'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { setVolume, volume } from '../../state/volume'

/** Notification volume: a slider 0..1, step 0.1, saved in localStorage `volume`. */
export function VolumeControl() {
  useSignals()
  const { t } = useTranslation()
  const lastAudible = useRef(volume.value || 1)
  const v = volume.value
  const Icon = v === 0 ? VolumeX : v < 0.5 ? Volume1 : Volume2
  return (
    <Popover className="relative">
      <PopoverButton
        aria-label={t('shell.volume')}
        title={t('shell.volume')}
        className="inline-flex size-9 items-center justify-center rounded-lg text-muted transition-colors duration-150 hover:bg-surface-2 hover:text-fg max-sm:size-11"
      >
        <Icon className="size-[18px]" aria-hidden />
      </PopoverButton>
      <PopoverPanel
        anchor="bottom end"
        transition
        className="z-50 w-64 rounded-lg border border-border bg-surface p-3 shadow-pop [--anchor-gap:6px] transition duration-150 data-closed:opacity-0"
      >
        <div className="mb-2 flex items-center justify-between">
          <span className="font-medium text-fg text-sm">{t('shell.volume')}</span>
          <span className="text-muted text-xs tnum">{Math.round(v * 100)}%</span>
        </div>
        <div className="flex items-center gap-2">
          <button
            type="button"
            className="inline-flex size-8 items-center justify-center rounded-md text-muted hover:bg-surface-2 hover:text-fg"
            aria-label={v === 0 ? t('shell.unmute') : t('shell.mute')}
            title={v === 0 ? t('shell.unmute') : t('shell.mute')}
            onClick={() => {
              if (v === 0) setVolume(lastAudible.current || 1)
              else {
                lastAudible.current = v
                setVolume(0)
              }
            }}
          >
            {v === 0 ? <VolumeX className="size-4" /> : <Volume2 className="size-4" />}
          </button>
          <input
            type="range"
            min={0}
            max={1}
            step={0.1}
            value={v}
            aria-label={t('shell.volume')}
            onChange={(e) => setVolume(Number(e.target.value))}
            className="h-2 flex-1 cursor-pointer accent-[var(--color-primary)]"
          />
        </div>
      </PopoverPanel>
    </Popover>
  )
}
