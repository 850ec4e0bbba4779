/**
 * Control-flow graphs of Python code, with dominators, post-dominators, reaching definitions and
 * def-use chains. Part of the UniIR; knows Python's AST ({@code dev.graphmend.ir.ast}) and nothing
 * else (in particular not the symbol tables: the dataflow here works on names).
 *
 * <h2>API</h2>
 * <pre>{@code
 * ControlFlowGraph g = ControlFlowGraph.of(functionDef);   // or ofModule(module), ofClass, of(lambda)
 * ControlFlowGraphs all = ControlFlowGraphs.of(module);    // every scope of a file
 * for (Block b : g.blocks())
 *     for (Edge e : b.successors())  ... e.kind() (EdgeKind), e.target()
 * g.blockOf(stmt); b.steps(); b.statements(); b.condition(); b.isReachable();
 * Dominators dom = Dominators.of(g), pdom = Dominators.postDominatorsOf(g);
 * ReachingDefinitions rd = ReachingDefinitions.of(g);
 * DefUse du = DefUse.of(rd);  du.definitionsOf(nameNode); du.usesOf(definition);
 * g.dump(source) / g.toDot(source) / g.toString()
 * }</pre>
 *
 * <h2>Graphs</h2>
 * One graph per scope: the module's top level, each {@code def}/{@code async def} body, each
 * lambda, each class body. A nested {@code def} or {@code class} is one statement of the enclosing
 * graph (its decorators, defaults and bases run there and its name is bound there); its body is a
 * graph of its own. Expressions are not split: {@code and}/{@code or}, conditional expressions and
 * comprehensions stay inside one step (the dataflow treats their conditional parts as such).
 *
 * <p>Every graph has an entry block (holding the parameters), an exit block (normal completion and
 * {@code return}) and a raise exit. A block holds {@link dev.graphmend.ir.cfg.Step steps}: simple
 * statements, and the header parts of compound statements where they run (an {@code if} test, a
 * {@code for} loop's iterable, next-item fetch and target binding, a {@code with} item's enter,
 * target and exit, a {@code match} subject, pattern and guard, an {@code except} clause's type
 * test, the handler's binding and the implicit {@code del} of its name).
 *
 * <h2>Modelling choices</h2>
 * <ul>
 *   <li><b>Loops.</b> A {@code while} header holds the test (TRUE into the body, FALSE to the
 *   {@code else} or past the loop). A {@code for} evaluates its iterable in the block before the
 *   header; the header fetches the next item (TRUE: the body, which starts by binding the target;
 *   FALSE: exhausted). The end of the body goes back along a LOOP_BACK edge (through an empty
 *   latch block when several paths join there). {@code break} goes past the loop, skipping its
 *   {@code else}; {@code continue} to the header. Constant tests ({@code while True},
 *   {@code if 0}) get only the edge that can be taken.</li>
 *   <li><b>Exceptions.</b> Inside a {@code try} body (and handlers and {@code else} protected by
 *   a {@code finally}, and {@code with} bodies) every block with a step that may raise has one
 *   EXCEPTION edge to where the exception goes: the first {@code except} test, or the exceptional
 *   copy of the {@code finally}/exit code. Only {@code pass}, {@code break}, {@code continue},
 *   {@code global}, {@code nonlocal}, the binding of a loop or {@code with} target that is a plain
 *   name, the handler's binding and its implicit {@code del} cannot raise. Outside such regions an exception simply leaves the function, and those edges are not
 *   drawn (every block would have one): only {@code raise}, failed asserts and re-raises reach the
 *   raise exit. {@code except} clauses are tested in order (TRUE: the handler; FALSE: the next
 *   clause); when the last one is not a bare {@code except:}, its FALSE edge re-raises to the
 *   enclosing target. {@code except*}: every clause runs in turn on what is left of the group (its
 *   FALSE edge, its normal end and exceptions raised in it all go to the next clause); an empty
 *   block after the last decides between completing and raising.</li>
 *   <li><b>finally: duplicated.</b> The {@code finally} body is built once per way of leaving the
 *   {@code try} that actually occurs: normal completion, {@code return}, {@code break},
 *   {@code continue}, exception — as CPython compiles it. Each copy is entered by the jump's own
 *   edge kind (a RETURN edge into the return copy) and left by the same kind of jump from outside
 *   the {@code try} (the return copy ends with RETURN to the exit or to an enclosing finally's
 *   return copy; the exceptional copy ends with the re-raise, an EXCEPTION edge). Paths therefore
 *   never mix: after a finally entered by {@code return}, control cannot fall through. The normal
 *   copy is always built, so a finally body is present even when nothing completes normally
 *   (unreachable then). {@link dev.graphmend.ir.cfg.ControlFlowGraph#blockOf} gives a statement's
 *   block in the first copy, {@code blocksOf} all of them; the dataflow treats a node as one
 *   definition or use whichever copy runs. A {@code return}/{@code break} inside the finally body
 *   itself replaces the pending jump: that copy has no re-raise. Copies multiply when try/finally
 *   nests inside finally bodies (up to five per level); a graph that would exceed 20,000 blocks is
 *   built with one shared copy per finally body instead ({@code sharedFinally()}: sound, less
 *   precise).</li>
 *   <li><b>with.</b> {@code with a, b:} is {@code with a: with b:}. Each item: ENTER (outside the
 *   protected region: a failing {@code __enter__} calls no {@code __exit__}), then the target
 *   binding and the body inside it. {@code __exit__} is a cleanup, duplicated per route like a
 *   finally body; its exceptional copy has two ways out: an EXCEPTION edge (re-raise) and a
 *   SUPPRESS edge to the code after the {@code with} — the context manager may swallow the
 *   exception (returning a true value). Exits may raise themselves.</li>
 *   <li><b>except ... as name.</b> Python runs the handler as {@code name = exc; try: body finally:
 *   del name}; so do we: an UNBIND step (killing the name) on every route out of the handler.</li>
 *   <li><b>match.</b> The subject is evaluated once; each case tests its pattern (TRUE: guard or
 *   body; FALSE: the next case), then its guard (FALSE: the next case). An irrefutable pattern (a
 *   capture or {@code _}, possibly inside an or-pattern or {@code as}) has only a TRUE edge; with a
 *   guard, the guard's FALSE edge still goes on. After the last case the FALSE edges go past the
 *   {@code match}; nothing does when the last case is an irrefutable pattern without a guard.</li>
 *   <li><b>assert</b> ends its block: TRUE onwards, FALSE to the exception target (the raise exit
 *   outside a try).</li>
 *   <li><b>yield.</b> A statement containing {@code yield}/{@code yield from} ends its block; the
 *   next block follows along a YIELD edge (the generator suspends and resumes there).
 *   {@code await} is not a block boundary.</li>
 *   <li><b>Dead code</b> after {@code return}, {@code raise}, {@code break}, {@code continue} lands
 *   in blocks without predecessors; they and everything reachable only from them are marked
 *   unreachable, and the dataflow ignores them.</li>
 * </ul>
 *
 * <h2>Dataflow</h2>
 * Reaching definitions and def-use chains are computed on names. A definition is any binding of
 * a name: assignment targets, augmented and annotated assignment (with a value), {@code for} and
 * {@code with} targets, {@code except ... as}, imports (not {@code *}), {@code def} and
 * {@code class}, walrus, match captures, parameters; {@code del} kills. Which scope a name belongs
 * to ({@code global}, {@code nonlocal}, free and cell variables, class scopes) is resolved by the
 * symbol tables, not here: a definition of {@code x} reaches a use of {@code x} in the same graph.
 * See {@link dev.graphmend.ir.cfg.ReachingDefinitions} for what flows along each kind of edge.
 */
package dev.graphmend.ir.cfg;
