import { ComingSoonAuthPage } from '../signup/SignupPage'

export function ForgetPasswordPage() {
  return <ComingSoonAuthPage titleKey="comingSoon.forgetTitle" textKey="comingSoon.forgetText" />
}
