-- Running conferences in the order of their start time, so that
-- vc.confs.list pages in SQL (internal/conference/page.go): an index over
-- the document's start_time (seconds; the creation time when a document
-- has none or an unreadable one), on conference records only. Times carry
-- their UTC offset (conference.TimeLayout), so the function is immutable
-- in fact although a text-to-timestamptz cast is not declared so.
CREATE FUNCTION confer_conf_start(doc text, created bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN COALESCE(floor(extract(epoch FROM (doc::json->>'start_time')::timestamptz))::bigint, created / 1000000000);
EXCEPTION WHEN others THEN
    RETURN created / 1000000000;
END
$$;
CREATE INDEX records_conf_start ON records(domain_moid, state, confer_conf_start(data, created_at), id COLLATE "C")
    WHERE kind = 'conf';
