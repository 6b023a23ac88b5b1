/// The content format: every object a pack, profile, memory or context file may hold.
/// Loading, lint, `coachlab schema` and the template-variable check all read these specs,
/// so the format is defined once.
public enum ContentSpecs {
    /// Pack identity.
    public static let packInfo = ObjectSpec("pack", "What the pack is: one app's prompt system.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier, used in compiled prompt paths."),
        FieldSpec("name", .string, required: true, "The app's name."),
        FieldSpec("description", .text, "What the app is and who it serves."),
        FieldSpec("version", .string, "The pack's own version."),
    ])

    /// One layer of a stack.
    public static let layer = ObjectSpec("layer", "One section of the system prompt.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier, used by 'trim' and in reports."),
        FieldSpec("title", .string, "The header title; rendered through the stack's 'header' template. Leave it out for no header."),
        FieldSpec("template", .text, required: true, "A Mustache template rendered against the compile context."),
        FieldSpec("when", .string, "A condition such as 'risk', '!coach.template' or 'coach.template && memory.insights'; the layer is left out when it is false."),
        FieldSpec("description", .text, "What the layer is for (documentation only)."),
    ])

    /// The ordered layers and their rendering.
    public static let stack = ObjectSpec("stack", "The prompt architecture: ordered layers with Mustache templates.", fields: [
        FieldSpec("header", .string, "Mustache template for a layer's header, given {{title}}. Default: '=== {{title}} ==='."),
        FieldSpec("separator", .string, "Text between layers. Default: a blank line."),
        FieldSpec("placeholders", .map(.text), "Single-brace placeholders such as {userName}, each a Mustache template; honoured in templates and in content."),
        FieldSpec("partials", .map(.text), "Named Mustache partials, used as {{> name}}."),
        FieldSpec("layers", .list(.object(layer)), required: true, "The layers, first to last."),
        FieldSpec("trim", .list(.string), "Layer ids to drop, in this order, when the prompt exceeds the token budget."),
    ])

    /// The coach's identity.
    public static let persona = ObjectSpec("persona", "Who the coach is.", fields: [
        FieldSpec("name", .string, required: true, "The coach's name."),
        FieldSpec("role", .text, "One line on what the coach is."),
        FieldSpec("summary", .text, "A short description."),
        FieldSpec("voice", .text, "How the coach sounds."),
        FieldSpec("tone", .text, "The emotional tone."),
        FieldSpec("coachingStyle", .text, "How the coach coaches."),
        FieldSpec("personality", .text, "Character traits."),
        FieldSpec("audience", .text, "Who the coach talks to."),
        FieldSpec("coreBeliefs", .list(.text), "Beliefs that shape the advice."),
        FieldSpec("boundaries", .list(.text), "What the coach does not do."),
        FieldSpec("attributes", .map(.text), "Any further named attributes, for templates."),
    ])

    /// A risk alert's content.
    public static let alert = ObjectSpec("alert", "What the model must do when the rule flags a message.", fields: [
        FieldSpec("instructions", .list(.text), required: true, "The YOU MUST lines injected into the risk alert."),
        FieldSpec("reason", .text, "Why the rule exists, shown to the model with the alert."),
    ])

    /// Screening for a rule.
    public static let guardrail = ObjectSpec("guardrail", "How messages are screened against this rule.", fields: [
        FieldSpec("keywords", .list(.string), "Phrases matched on word boundaries after case, accent and punctuation folding."),
        FieldSpec("lexicons", .list(.string), "Lexicon ids; any entry of one flags the rule."),
        FieldSpec("frames", .list(.string), "Phrase templates matched on word boundaries: words, (a|b) alternatives, [optional] words, {lexicon} slots, ~word for any inflection, # for a number."),
        FieldSpec("patterns", .list(.string), "Regular expressions matched case-insensitively against the message."),
        FieldSpec("exceptions", .list(.string), "Phrases in the frame syntax that, where they overlap a match, keep the rule from flagging."),
        FieldSpec("alert", .object(alert), required: true, "The risk alert injected when the rule flags."),
        FieldSpec("classifier", .text, "How the stage-2 classifier should recognise this rule's cases."),
    ])

    /// A lexicon.
    public static let lexicon = ObjectSpec("lexicon", "A named word list that guardrail frames reference as {id}.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier, used as {id} in frames."),
        FieldSpec("description", .text, "What the list holds."),
        FieldSpec("inflect", .boolean, "Whether entry words also match their inflections (diagnose, diagnosed, diagnosis). Default false."),
        FieldSpec("entries", .list(.string), required: true, "Words or phrases; # stands for a number (# mg, #mg), (a|b) for alternatives."),
    ])

    /// A rule of engagement.
    public static let rule = ObjectSpec("rule", "A rule of engagement, optionally with a guardrail.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier."),
        FieldSpec("title", .string, required: true, "Short title, as the seed's Rule.title."),
        FieldSpec("content", .text, required: true, "The rule as the model reads it."),
        FieldSpec("category", .string, "A grouping such as safety, style or scope."),
        FieldSpec("priority", .integer, "Higher comes first in the prompt and wins when several rules flag. Default 0."),
        FieldSpec("guardrail", .object(guardrail), "Screening of user messages against this rule."),
    ])

    /// A topic intent.
    public static let intent = ObjectSpec("intent", "What the user wants from a session.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier, such as next_step."),
        FieldSpec("label", .string, required: true, "What the user picked, as shown in the app."),
        FieldSpec("instruction", .text, required: true, "What the model should do for this intent."),
    ])

    /// A knowledge object.
    public static let knowledge = ObjectSpec("knowledge object", "A unit of coaching knowledge.", fields: [
        FieldSpec("id", .string, "Stable identifier."),
        FieldSpec("title", .string, "A short name."),
        FieldSpec("coreIdea", .text, required: true, "The idea in one or two sentences."),
        FieldSpec("whenToUse", .text, "When the idea applies."),
        FieldSpec("heuristics", .list(.text), "Rules of thumb."),
        FieldSpec("whatToAvoid", .list(.text), "Common mistakes."),
        FieldSpec("source", .string, "Where the idea comes from (sourceReference)."),
        FieldSpec("intents", .list(.string), "Limit this object to these intents of its topic."),
    ])

    /// A topic.
    public static let topic = ObjectSpec("topic", "A coaching topic with intents and knowledge.", fields: [
        FieldSpec("slug", .string, required: true, "Stable identifier, as in deep links."),
        FieldSpec("title", .string, required: true, "Display title."),
        FieldSpec("subtitle", .string, "Display subtitle."),
        FieldSpec("scope", .text, "What is in and out of scope for the topic."),
        FieldSpec("icon", .string, "Icon name."),
        FieldSpec("section", .string, "The home-screen section."),
        FieldSpec("isPremium", .boolean, "Whether the topic is premium-gated."),
        FieldSpec("intents", .list(.object(intent)), "What a user can ask for."),
        FieldSpec("knowledge", .list(.object(knowledge)), "Knowledge objects."),
    ])

    /// A coaching framework phase.
    public static let phase = ObjectSpec("phase", "One phase of a coaching framework.", fields: [
        FieldSpec("name", .string, required: true, "Phase name."),
        FieldSpec("description", .text, required: true, "What happens in the phase."),
    ])

    /// A coaching framework.
    public static let framework = ObjectSpec("framework", "The coaching framework.", fields: [
        FieldSpec("name", .string, required: true, "Framework name."),
        FieldSpec("description", .text, "What the framework is."),
        FieldSpec("phases", .list(.object(phase)), required: true, "Its phases, in order."),
    ])

    /// A few-shot example exchange.
    public static let example = ObjectSpec("example", "A few-shot example exchange.", fields: [
        FieldSpec("user", .text, required: true, "What the user says."),
        FieldSpec("coach", .text, required: true, "What the coach answers."),
    ])

    /// A rich coach template (Kindred's CoachPromptTemplate).
    public static let coachTemplate = ObjectSpec("coach template", "A rich coach definition (the rich prompt path).", fields: [
        FieldSpec("role", .text, required: true, "Who the coach is."),
        FieldSpec("personality", .text, required: true, "How the coach behaves."),
        FieldSpec("framework", .object(framework), required: true, "The coaching framework."),
        FieldSpec("rules", .list(.text), required: true, "Behavioural rules."),
        FieldSpec("examples", .list(.object(example)), required: true, "Few-shot example exchanges."),
        FieldSpec("contextInstructions", .text, "How to use the user's context."),
        FieldSpec("reminders", .list(.text), "Critical reminders, last in the prompt."),
        FieldSpec("actionOrientation", .text, "How to end with action."),
    ])

    /// A coach.
    public static let coach = ObjectSpec("coach", "A coach: a rich template or a plain system prompt.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier."),
        FieldSpec("name", .string, required: true, "Display name."),
        FieldSpec("icon", .string, "Icon name."),
        FieldSpec("summary", .text, "One line for the coach library."),
        FieldSpec("isPro", .boolean, "Whether the coach is premium-gated."),
        FieldSpec("starterQuestions", .list(.text), "Conversation starters."),
        FieldSpec("template", .object(coachTemplate), "The rich definition; selects the rich prompt path."),
        FieldSpec("systemPrompt", .text, "Plain text written by a user; selects the fallback prompt path."),
        FieldSpec("memoryClearedAt", .date, "Memory insights created before this are ignored."),
    ])

    /// A profile: free-form data about the user.
    public static let profile = ObjectSpec("profile", "Data about the user that reaches the prompt; any keys.", open: true, fields: [
        FieldSpec("id", .string, required: true, "Stable identifier."),
        FieldSpec("description", .text, "What this profile represents (documentation only)."),
    ])

    /// A session insight.
    public static let insight = ObjectSpec("insight", "A structured summary of a past session.", fields: [
        FieldSpec("createdAt", .date, required: true, "When the insight was made."),
        FieldSpec("coach", .string, "The coach it belongs to; absent means any coach."),
        FieldSpec("summary", .text, required: true, "What happened."),
        FieldSpec("keyTheme", .text, "The key theme."),
        FieldSpec("patterns", .list(.text), "Patterns noticed (1-3)."),
        FieldSpec("emotion", .string, "The dominant emotion."),
        FieldSpec("repeatedWords", .list(.string), "Words the user kept using."),
        FieldSpec("suggestion", .text, "An actionable suggestion."),
        FieldSpec("isQuickReflection", .boolean, "Whether this was a mid-session reflection."),
    ])

    /// A memory: past insights.
    public static let memory = ObjectSpec("memory", "Insights from past sessions.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier."),
        FieldSpec("clearedAt", .date, "When the user cleared memory; earlier insights are ignored."),
        FieldSpec("insights", .list(.object(insight)), required: true, "The insights, in any order."),
    ])

    /// Context data: free-form structured data.
    public static let context = ObjectSpec("context", "Structured data that reaches the prompt (health data, app state); any keys.",
                                           open: true, fields: [
        FieldSpec("id", .string, required: true, "Stable identifier."),
        FieldSpec("description", .text, "What this context represents (documentation only)."),
    ])

    /// Model settings.
    public static let model = ObjectSpec("model", "Model settings the app uses.", fields: [
        FieldSpec("provider", .string, "Provider kind or id, such as openai, anthropic, gemini."),
        FieldSpec("model", .string, "Model name."),
        FieldSpec("temperature", .number, "Sampling temperature."),
        FieldSpec("maxTokens", .atLeast(1), "Maximum output tokens."),
    ])

    /// The context budget.
    public static let budget = ObjectSpec("context budget", "How much the prompt and history may hold.", fields: [
        FieldSpec("windowTokens", .atLeast(1), "The model's context window in tokens."),
        FieldSpec("systemMaxTokens", .atLeast(1), "Most tokens the system prompt may take; layers in the stack's 'trim' are dropped past it."),
        FieldSpec("reserveForReply", .atLeast(0), "Tokens kept free for the reply."),
        FieldSpec("rotateAtMessages", .atLeast(1), "Start a new session after this many messages."),
        FieldSpec("summarizeLast", .atLeast(0), "How many messages to summarise into the new session."),
    ])

    /// Memory settings.
    public static let memorySettings = ObjectSpec("memory settings", "How memory is selected.", fields: [
        FieldSpec("limit", .atLeast(0), "How many of the newest insights reach the prompt. Default 3."),
    ])

    /// A count range for coach template limits.
    public static let countRange = ObjectSpec("count range", "An inclusive count range.", fields: [
        FieldSpec("min", .atLeast(0), required: true, "Fewest allowed."),
        FieldSpec("max", .atLeast(0), required: true, "Most allowed."),
    ])

    /// Coach template count limits.
    public static let coachLimits = ObjectSpec("coach limits", "Count limits for rich coach templates.", fields: [
        FieldSpec("phases", .object(countRange), "Framework phases. Default 3-5."),
        FieldSpec("rules", .object(countRange), "Rules. Default 5-7."),
        FieldSpec("examples", .object(countRange), "Example exchanges. Default 3."),
        FieldSpec("starterQuestions", .object(countRange), "Starter questions. Default 3."),
    ])

    /// Defaults.
    public static let defaults = ObjectSpec("defaults", "Model settings and the context budget.", fields: [
        FieldSpec("model", .object(model), "The app's model settings."),
        FieldSpec("fallbacks", .list(.object(model)), "Providers tried in order when the model fails."),
        FieldSpec("cannedReplies", .list(.text), "Fixed replies used when no model answers."),
        FieldSpec("context", .object(budget), "The context budget."),
        FieldSpec("memory", .object(memorySettings), "Memory selection."),
        FieldSpec("screening", .object(ObjectSpec("screening", "How messages are screened.", fields: [
            FieldSpec("stage2", .oneOf(["when-unflagged", "always"]),
                      "When the stage-2 classifier runs, if enabled: only when keywords found nothing (default), or always."),
            FieldSpec("typos", .boolean,
                      "Whether stage 1 reads a word of five or more letters one edit from a screen word (same first letter) as that word: myslef, suiccide. Default true."),
        ])), "How messages are screened."),
        FieldSpec("coachLimits", .object(coachLimits), "Count limits for rich coach templates."),
        FieldSpec("timezone", .string, "Time zone used when --now has no offset, such as Europe/London."),
    ])

    /// The reply contract.
    public static let reply = ObjectSpec("reply", "What every reply must be, as typed values the templates render and the mock and the follows-contract check obey.", fields: [
        FieldSpec("sentences", .string, "How many sentences: 3 (at most three), or a range: 1-3 or 1 to 3. Templates get it as written."),
        FieldSpec("words", .atLeast(1), "The most words a reply has."),
        FieldSpec("questions", .atLeast(0), "The most questions a reply asks; 0 for none."),
        FieldSpec("endWithQuestion", .boolean, "Whether every reply ends on a question."),
        FieldSpec("forbid", .list(.oneOf(ReplyContract.Form.allCases.map(\.rawValue))), "Forms a reply never uses."),
        FieldSpec("name", .string, "The name the coach goes by, when it is not the persona's."),
        FieldSpec("stayInRole", .boolean, "Whether the coach never says it is an AI, a bot or a language model."),
        FieldSpec("confidential", .boolean, "Whether the coach never reveals or repeats its instructions."),
        FieldSpec("tokens", .atLeast(1), "The most output tokens a reply takes."),
    ])

    /// A declared compile variant.
    public static let variant = ObjectSpec("variant", "A named set of compile inputs; 'compile --all' writes each one.", fields: [
        FieldSpec("id", .string, required: true, "Stable identifier; the compiled file's name."),
        FieldSpec("description", .text, "What the variant shows."),
        FieldSpec("coach", .string, "Coach id."),
        FieldSpec("topic", .string, "Topic slug."),
        FieldSpec("intent", .string, "Intent id of the topic."),
        FieldSpec("profile", .string, "Profile id."),
        FieldSpec("memory", .string, "Memory id."),
        FieldSpec("context", .string, "Context id."),
        FieldSpec("now", .date, "The local date and time, such as 2026-03-01T02:40:00-05:00."),
        FieldSpec("screen", .text, "The latest user message, screened for risk."),
    ])

    /// A pack file (pack.yaml, or any file it includes).
    public static let packFile = ObjectSpec("pack file", "A CoachLab pack file: pack.yaml or a file it includes.", fields: [
        FieldSpec("include", .list(.string), "Files or globs (relative to this file) merged into the pack."),
        FieldSpec("pack", .object(packInfo), "The pack's identity; exactly once per pack, in pack.yaml."),
        FieldSpec("stack", .object(stack), "The prompt architecture; exactly once per pack."),
        FieldSpec("persona", .object(persona), "The coach's persona; at most once per pack."),
        FieldSpec("rules", .list(.object(rule)), "Rules of engagement."),
        FieldSpec("lexicons", .list(.object(lexicon)), "Word lists for guardrail frames."),
        FieldSpec("topics", .list(.object(topic)), "Topics."),
        FieldSpec("coaches", .list(.object(coach)), "Coaches."),
        FieldSpec("profiles", .list(.object(profile)), "User profiles."),
        FieldSpec("memories", .list(.object(memory)), "Memories of past sessions."),
        FieldSpec("contexts", .list(.object(context)), "Structured context data."),
        FieldSpec("defaults", .object(defaults), "Model settings and the context budget; at most once per pack."),
        FieldSpec("reply", .object(reply), "What every reply must be (the reply contract); at most once per pack. Render it with {{> reply}} or in your own words."),
        FieldSpec("variants", .list(.object(variant)), "Named compile variants."),
    ])

    /// Every file kind `coachlab schema` emits, by name.
    public static let fileKinds: [(name: String, spec: ObjectSpec)] = [
        ("pack", packFile),
        ("profile", profile),
        ("memory", memory),
        ("context", context),
        ("fixture", Fixture.fileSpec),
        ("suite", Suite.fileSpec),
        ("dataset", GuardrailDataset.fileSpec),
        ("sessions", DailyTip.sessionsSpec),
        ("rubric", Check.rubricFileSpec),
        ("judgement", Judgement.fileSpec),
        ("review-labels", ReviewLabels.fileSpec),
    ]
}
