-- A stored board pack whose row goes with its meeting (a cascade no code path sees) leaves its bytes to the sweep,
-- as a deleted paper's do: nothing in the file store outlives the row that owns it. A pack replaced by a newer one is
-- updated in place, not deleted, and its bytes are released by the code that replaces it.
CREATE FUNCTION quorum_sweep_board_pack() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO file_sweep (storage, location, storage_key, due_at) VALUES (OLD.storage, OLD.location, OLD.storage_key, now());
  RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER board_packs_sweep_bytes AFTER DELETE ON board_packs FOR EACH ROW EXECUTE FUNCTION quorum_sweep_board_pack();
