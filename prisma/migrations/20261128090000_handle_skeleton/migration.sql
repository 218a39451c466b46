-- A guest's name is refused when it reads as someone's handle
-- (lib/accounts/guest-names.ts). Each handle's skeleton is kept beside it and
-- indexed, so that check is one index lookup instead of a scan of every person.
-- atrium_handle_skeleton is nameSkeleton of guest-names.ts for a handle
-- ([a-z0-9-]); a test holds the two equal. A trigger keeps the column true on
-- every insert and handle change, whichever code writes the row.
CREATE FUNCTION atrium_handle_skeleton(handle text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT regexp_replace(replace(replace(translate(handle, '01i|', 'olll'), 'rn', 'm'), 'vv', 'w'), '-+', '-', 'g') $$;

CREATE FUNCTION atrium_user_handle_skeleton() RETURNS trigger
  LANGUAGE plpgsql
  AS $$ BEGIN NEW."handleSkeleton" := atrium_handle_skeleton(NEW."handle"); RETURN NEW; END $$;

ALTER TABLE "User" ADD COLUMN "handleSkeleton" TEXT NOT NULL DEFAULT '';

CREATE TRIGGER "User_handleSkeleton" BEFORE INSERT OR UPDATE OF "handle" ON "User"
  FOR EACH ROW EXECUTE FUNCTION atrium_user_handle_skeleton();

UPDATE "User" SET "handleSkeleton" = atrium_handle_skeleton("handle");

CREATE INDEX "User_handleSkeleton_idx" ON "User"("handleSkeleton");
