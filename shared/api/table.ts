// The API's table: every endpoint's declaration, by the module that declares it. The server's route list,
// the OpenAPI document and the tests that walk every route read it from here.
import type { Endpoint } from "./endpoint";
import * as resolutions from "./resolutions";
import * as reference from "./reference";
import * as account from "./account";
import * as auth from "./auth";
import * as health from "./health";
import * as notifications from "./notifications";
import * as companies from "./companies";
import * as platform from "./platform";
import * as compliance from "./compliance";
import * as documents from "./documents";
import * as meetings from "./meetings";
import * as meetingRecord from "./meeting-record";
import * as secondFactor from "./second-factor";
import * as audit from "./audit";
import * as events from "./events";
import * as identity from "./identity";
import * as reading from "./reading";
import * as search from "./search";
import * as archive from "./archive";

/** Each declaring module of shared/api by its file name: the client's build replaces each with its methods and paths. */
export const apiModules: Record<string, Record<string, Endpoint>> = {
  resolutions,
  reference,
  account,
  auth,
  health,
  notifications,
  companies,
  platform,
  compliance,
  documents,
  meetings,
  "meeting-record": meetingRecord,
  "second-factor": secondFactor,
  audit,
  events,
  identity,
  reading,
  search,
  archive,
};

/** Every endpoint of the API. */
export const apiTable: readonly Endpoint[] = Object.values(apiModules).flatMap((declarations) => Object.values(declarations));
