// Everything a user may import from @askseam/bus-redis, named one by one.
export { RedisQuestionBus } from './redis-bus.js';
export type { RedisQuestionBusLogger, RedisQuestionBusOptions } from './redis-bus.js';
