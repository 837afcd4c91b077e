// The benchmark's yardstick (npm run bench): the bare stack Quorum is built on, express 5 + drizzle + pg with a
// pool of the same size, answering one row read by primary key as JSON. Nothing else: no logger, no headers
// middleware, no session. Reads DATABASE_URL and PORT; prints "listening" once it accepts connections.
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import express from "express";
import pg from "pg";

const companies = pgTable("companies", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  quorumPercent: integer("quorum_percent"),
});

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const db = drizzle(pool);
const app = express();
app.get("/row/:id", async (req, res) => {
  const [row] = await db
    .select()
    .from(companies)
    .where(eq(companies.id, Number(req.params.id)));
  if (!row) {
    res.status(404).json({ message: "Not found" });
    return;
  }
  res.json(row);
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log("listening"));
process.on("SIGTERM", () => server.close(() => void pool.end().then(() => process.exit(0))));
