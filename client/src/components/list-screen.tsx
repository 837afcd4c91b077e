import type { ComponentProps, ReactNode } from "react";
import { ListFrame } from "@/components/list-frame";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

export {
  ListQueryState,
  ListSkeleton,
  type EmptyListProps,
  type ListQuery,
  type ListScreenAction,
  type ListScreenSearch,
} from "@/components/list-frame";

export interface ListScreenTab {
  value: string;
  label: string;
  content: ReactNode;
}

/**
 * The frame of a page that lists one kind of thing (meetings, resolutions): the title with the main action, the
 * search (with any `filters` beside it), then the tabs, the first one open, or the `children` when the list has no
 * tabs.
 */
export function ListScreen({ tabs, children, ...frame }: ComponentProps<typeof ListFrame> & { tabs?: readonly ListScreenTab[] }) {
  return (
    <ListFrame {...frame}>
      {tabs && tabs.length > 0 && (
        <Tabs defaultValue={tabs[0]?.value}>
          <TabsList>
            {tabs.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value}>
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {tabs.map((tab) => (
            <TabsContent key={tab.value} value={tab.value}>
              {tab.content}
            </TabsContent>
          ))}
        </Tabs>
      )}
      {children}
    </ListFrame>
  );
}
