-- Claims the settlement of an authorization, unless it already has a final answer.
-- KEYS[1]  the authorization's success;  KEYS[2]  this payload's final refusal;  KEYS[3]  the lock
-- ARGV     lock token, lock ttl_ms
-- Returns  {2, answer JSON} when answered before, {1, ''} when claimed now, {0, ''} when another holds it.
local answered = redis.call('GET', KEYS[1]) or redis.call('GET', KEYS[2])
if answered then return {2, answered} end
if redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2], 'NX') then return {1, ''} end
return {0, ''}
