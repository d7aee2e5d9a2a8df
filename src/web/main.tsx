import './styles.css'
import './i18n'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { App } from './App'
import { restoreSession } from './state/session'
import { applyTheme, theme } from './state/theme'

// The server's CSP forbids inline scripts, so the theme is applied here, before the first render.
applyTheme(theme.value)
void restoreSession()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
)
