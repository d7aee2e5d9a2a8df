export * from './companies'
export * from './plans'
export * from './queues'
export * from './users'
