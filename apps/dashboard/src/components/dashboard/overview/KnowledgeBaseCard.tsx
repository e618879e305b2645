import { Button } from '@fanpilot/ui';
import { TEXT } from '../../../texts.ts';
import { BookIcon } from '../../icons.tsx';
import { Card, EmptyState } from '../Card.tsx';

interface KnowledgeBaseCardProps {
  /** Opens the Add Knowledge Source modal (left out until that modal exists). */
  onAddKnowledge?: (() => void) | undefined;
}

const t = TEXT.dashboard.knowledge;

/** The chatbot's knowledge sources; the list and its progress bar come with the knowledge feature. */
export function KnowledgeBaseCard({ onAddKnowledge }: KnowledgeBaseCardProps) {
  return (
    <Card
      title={t.heading}
      Icon={BookIcon}
      action={
        onAddKnowledge && (
          <Button size="sm" onClick={onAddKnowledge}>
            {t.add}
          </Button>
        )
      }
    >
      <EmptyState Icon={BookIcon}>{t.empty}</EmptyState>
    </Card>
  );
}
