-- A list belongs to one owner, but Postgres takes `owner_id = $1 and list_key = $2` as two
-- independent conditions and multiplies their shares: in a table of many owners it expected
-- a list's records at the owner's share of the list's (a tenth, in a table where the owner
-- holds a tenth), so every filtered count and page was planned for a list ten times smaller
-- than it is. The functional dependency list_key → owner_id tells the planner that the list
-- alone decides (docs/records.md, "Statistics of a list in a shared table").
CREATE STATISTICS IF NOT EXISTS "list_items_owner_list_stats" (dependencies) ON "owner_id", "list_key" FROM "list_items";
