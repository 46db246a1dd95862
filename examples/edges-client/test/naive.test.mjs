import { createClient } from "../src/naive-client.mjs";
import { journey } from "./journey.mjs";

journey(createClient);
