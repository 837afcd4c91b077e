import { buildCompanyMember } from "@/testing/factories";
import { filterMembers } from "@/features/companies/filter-members";

const ada = buildCompanyMember({ id: 1, firstName: "Ada", lastName: "Lovelace", email: "ada@engines.org", role: "founder" });
const grace = buildCompanyMember({ id: 2, firstName: "Grace", lastName: "Hopper", email: "grace@navy.mil", role: "observer" });
const alan = buildCompanyMember({
  id: 3,
  firstName: "Alan",
  lastName: "Turing",
  email: "alan@bletchley.uk",
  role: "member",
  username: "aturing",
});

describe("filterMembers", () => {
  it.each([
    ["", [1, 2, 3]],
    ["  ", [1, 2, 3]],
    ["ADA", [1]],
    ["hopper", [2]],
    ["NAVY.MIL", [2]],
    ["observer", [2]],
    ["board member", [3]],
    ["founder / admin", [1]],
    ["a", [1, 2, 3]],
    ["aturing", []],
  ] as const)("%j → %j", (query, ids) => {
    expect(filterMembers([ada, grace, alan], query).map((found) => found.id)).toEqual(ids);
  });
});
