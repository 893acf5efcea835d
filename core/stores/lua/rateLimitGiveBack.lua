-- Gives back what rateLimit counted, for a request that turned out not to count (a paid call
-- whose payment was accepted). Never below zero, never on a window that has already rolled over.
-- KEYS[i]  a counter rateLimit incremented
-- Returns  the number of counters decremented
local given = 0
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count > 0 then
    redis.call('DECR', key)
    given = given + 1
  end
end
return given
