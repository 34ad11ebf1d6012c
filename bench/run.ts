/** `npm run bench`: every benchmark, each printed next to a baseline measured in the same run. */
import { printAmmBench, runAmmBench } from "./amm.ts";

printAmmBench(runAmmBench());
