/**
 * Systems with two levels (Fields of Research: divisions `46 …` and their groups `4611 …`):
 * one classifier per level, so a division competes with divisions only, and a group with the
 * other groups of its division. Records carry a division with one or more of its groups; a
 * single model over both levels lets any narrow group outscore the division it belongs to.
 * The level of a category comes from the code its name starts with (`4611 Machine learning`
 * is under `46 …`), so it works whatever the ids are. A system whose categories have no such
 * codes is one level, and this is the plain classifier.
 *
 * @example
 *   model.classify('Convolutional networks for image segmentation');
 *   // [{id: '46', name: '46 Information and Computing Sciences', score: 0.93},
 *   //  {id: '4603', name: '4603 Computer vision and multimedia computation', score: 0.41}]
 */
import {
  CategoryTrainer,
  type Category,
  type CategoryModel,
  type ClassifyOptions,
  type ScoredCategory,
  type TrainerOptions,
} from './naive-bayes.ts';

/** What a trained classifier offers, one level or two. */
export interface Classifier {
  /** Every category it knows for a text, best first. */
  rank(text: string): ScoredCategory[];
  /** The categories of a text (the best and those near it), best first, scores rounded. */
  classify(text: string, options?: ClassifyOptions): ScoredCategory[];
  readonly trainedOn: number;
  readonly offered: number;
  readonly categories: number;
}

/** The numeric code a category name starts with (`4611 Machine learning` → `4611`). */
function codeOf(name: string): string | undefined {
  return /^(\d{2}|\d{4})\s/.exec(name)?.[1];
}

const round = (c: ScoredCategory): ScoredCategory => ({ ...c, score: Math.round(c.score * 1000) / 1000 });

class TwoLevelModel implements Classifier {
  constructor(
    private readonly top: CategoryModel,
    private readonly sub: CategoryModel,
  ) {}

  get trainedOn(): number {
    return this.top.trainedOn;
  }

  get offered(): number {
    return this.top.offered;
  }

  get categories(): number {
    return this.top.categories + this.sub.categories;
  }

  rank(text: string): ScoredCategory[] {
    const tops = this.top.rank(text);
    const subs = this.sub.rank(text);
    const out: ScoredCategory[] = [...tops];
    for (const t of tops) {
      const code = codeOf(t.name);
      if (code === undefined) continue;
      const children = subs.filter((s) => codeOf(s.name)?.startsWith(code) === true);
      const total = children.reduce((a, c) => a + c.score, 0);
      if (total > 0) for (const c of children) out.push({ ...c, score: (t.score * c.score) / total });
    }
    return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  classify(text: string, options: ClassifyOptions = {}): ScoredCategory[] {
    const relative = options.relative ?? 0.5;
    const limit = options.limit ?? 5;
    const tops = this.top.classify(text, { relative, limit });
    const subs = this.sub.rank(text);
    const out: ScoredCategory[] = [];
    for (const t of tops) {
      out.push(t);
      const code = codeOf(t.name);
      if (code === undefined) continue;
      const children = subs.filter((s) => codeOf(s.name)?.startsWith(code) === true);
      const total = children.reduce((a, c) => a + c.score, 0);
      const best = children[0];
      if (best === undefined || total === 0) continue;
      for (const c of children.slice(0, 2))
        if (c.score >= best.score * relative) out.push(round({ ...c, score: (t.score * c.score) / total }));
    }
    // A group never outscores its division, so sorting keeps each division before its groups.
    return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
  }
}

/** Trains one classifier per level, or one for a one-level system. */
export class SystemTrainer {
  private readonly top: CategoryTrainer;
  private readonly sub: CategoryTrainer;
  private subOffered = 0;

  constructor(options: TrainerOptions = {}) {
    this.top = new CategoryTrainer(options);
    this.sub = new CategoryTrainer(options);
  }

  offer(text: string, categories: readonly Category[]): void {
    const tops: Category[] = [];
    const subs: Category[] = [];
    for (const c of categories) (codeOf(c.name)?.length === 4 ? subs : tops).push(c);
    if (tops.length === 0 && subs.length > 0) {
      // Groups without their division: the division is known from the code, not its id or name.
      this.sub.offer(text, subs);
      this.subOffered++;
      return;
    }
    this.top.offer(text, tops);
    if (subs.length > 0) {
      this.sub.offer(text, subs);
      this.subOffered++;
    }
  }

  train(): Classifier {
    const top = this.top.train();
    if (this.subOffered === 0) return top;
    const sub = this.sub.train();
    return top.categories === 0 ? sub : new TwoLevelModel(top, sub);
  }
}
