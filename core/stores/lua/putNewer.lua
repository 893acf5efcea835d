-- Writes a record's hot copy unless the copy there is of a later revision: two writers that
-- updated the record one after the other may reach Redis in the other order.
-- KEYS[1]  the hot copy (JSON with a numeric "_rev"; a copy without one counts as revision 0)
-- ARGV     the new copy, its revision, TTL in seconds
-- Returns  1 when written, 0 when a later revision is already there.
local current = redis.call('GET', KEYS[1])
if current then
  local ok, doc = pcall(cjson.decode, current)
  if ok and type(doc) == 'table' and tonumber(doc['_rev'] or 0) > tonumber(ARGV[2]) then
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[3]))
return 1
