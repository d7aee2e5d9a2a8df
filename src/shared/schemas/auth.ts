import { type } from 'arktype'

export const loginBody = type({
  '+': 'delete',
  email: type('string.trim')
    .pipe((s) => s.toLowerCase())
    .to('1 <= string <= 120'),
  password: '1 <= string <= 200',
})
