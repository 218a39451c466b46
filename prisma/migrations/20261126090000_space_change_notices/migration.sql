-- Every node keeps the records of spaces that anonymous visitors ask for
-- (lib/spaces/space-cache.ts); these triggers tell them, on commit, that one
-- changed, whichever statement changed it.
CREATE FUNCTION atrium_space_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('atrium_spaces', OLD."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "Space_changed" AFTER UPDATE OR DELETE ON "Space"
  FOR EACH ROW EXECUTE FUNCTION atrium_space_changed();

CREATE FUNCTION atrium_workspace_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('atrium_spaces', 'w:' || OLD."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "Workspace_changed" AFTER UPDATE OF "slug", "name" ON "Workspace"
  FOR EACH ROW EXECUTE FUNCTION atrium_workspace_changed();
