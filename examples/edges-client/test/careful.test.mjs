import { createClient } from "../src/careful-client.mjs";
import { journey } from "./journey.mjs";

journey(createClient);
