import { useCompanies } from "@/features/companies/api/get-companies";
import { SearchDialog } from "@/features/search/components/search-dialog";
import { searchResultHref, useOpenSearchResult } from "@/app/search-results";

/** The search dialog with what the app gives it: where results open, the company switch, whether the user has other boards. */
export function SearchDialogHost({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const companies = useCompanies();
  const openResult = useOpenSearchResult();
  return (
    <SearchDialog
      open={open}
      onOpenChange={onOpenChange}
      hrefOf={searchResultHref}
      onOpenResult={(result, href) => void openResult(result, href)}
      manyBoards={(companies.data?.length ?? 0) > 1}
    />
  );
}
