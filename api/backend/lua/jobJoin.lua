-- Adds a holder to a running job, unless the job is being cancelled.
-- KEYS[1]  set of the job's holders;  KEYS[2]  the job's cancelled flag
-- ARGV     holder id, ttl_s
-- Returns  the number of holders after joining, or -1 when the job is being cancelled
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return redis.call('SCARD', KEYS[1])
