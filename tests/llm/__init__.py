"""The LLM client against a fake OpenAI-compatible server over real HTTP."""
