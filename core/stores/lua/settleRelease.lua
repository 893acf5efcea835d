-- Releases a settlement claim, storing the payload's final answer first when there is one.
-- KEYS[1]  the payload's final answer (by digest);  KEYS[2]  the lock of its authorization
-- ARGV     lock token, answer JSON ('' for none), answer ttl_seconds
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1
