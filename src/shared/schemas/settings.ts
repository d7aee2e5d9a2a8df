import { type } from 'arktype'

export const settingBody = type({ '+': 'delete', value: 'string <= 200', 'key?': 'string' })
