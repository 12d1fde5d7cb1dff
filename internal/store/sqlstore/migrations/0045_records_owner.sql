-- The records of an owner: a conference's terminals (kind "mt", owned by
-- the conf_id), counted when terminals are added (max_join_mt) and listed
-- by the engine, without scanning the domain's other terminals.
CREATE INDEX records_owner ON records(kind, owner_moid, domain_moid);
