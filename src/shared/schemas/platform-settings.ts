import { type } from 'arktype'

/** `PUT /platform-settings/{key}`: a value, or null (or '') to fall back to the environment. */
export const platformSettingBody = type({ '+': 'delete', value: 'string <= 500 | null' })
