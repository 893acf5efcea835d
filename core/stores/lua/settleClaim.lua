-- Claims the settlement of a signed payment, unless that exact payload already has a final answer.
-- KEYS[1]  the payload's final answer (by digest);  KEYS[2]  the lock of its authorization
-- ARGV     lock token, lock ttl_ms
-- Returns  {2, answer JSON} when answered before, {1, ''} when claimed now, {0, ''} when another holds it.
local answered = redis.call('GET', KEYS[1])
if answered then return {2, answered} end
if redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX') then return {1, ''} end
return {0, ''}
