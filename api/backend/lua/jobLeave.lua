-- A holder lets go of a job; the last one to let go with mode `cancel` cancels it. An operator
-- (`force`) cancels it whoever holds it; `leave` never cancels (a waiter that is done waiting).
-- KEYS[1]  set of the job's holders;  KEYS[2]  the job's cancelled flag
-- ARGV     holder id, mode (cancel | leave | force), ttl_s
-- Returns  {-1, 0} when the holder does not hold the job, {1, holders_left} when it let go and
--          others still hold it (or mode is leave), {2, 0} when the job is to be cancelled now
local mode = ARGV[2]
if mode == 'force' then
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
  redis.call('DEL', KEYS[1])
  return {2, 0}
end
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return {-1, 0} end
local left = redis.call('SCARD', KEYS[1])
if left == 0 and mode == 'cancel' then
  redis.call('SET', KEYS[2], '1', 'EX', ARGV[3])
  return {2, 0}
end
return {1, left}
