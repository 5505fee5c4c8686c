// @askseam/store-redis: the RedisQuestionStore lands here next; the test harness is at @askseam/store-redis/testing.
export {};
