/**
 * The emoji picker's set: the emojis attendants actually use, by category (a few hundred, not the full Unicode
 * list: a picker dependency with every emoji and its search data would weigh more than the whole inbox).
 * Each string is split on spaces; multi-codepoint emojis (❤️, 👍🏽) stay whole.
 */
export type EmojiCategory = { key: string; icon: string; emojis: string[] }

const list = (s: string) => s.split(' ').filter(Boolean)

export const EMOJI_CATEGORIES: EmojiCategory[] = [
  {
    key: 'smileys',
    icon: '😀',
    emojis: list(
      '😀 😃 😄 😁 😆 😅 🤣 😂 🙂 🙃 😉 😊 😇 🥰 😍 🤩 😘 😗 😚 😙 😋 😛 😜 🤪 😝 🤑 🤗 🤭 🤫 🤔 🤐 🤨 ' +
        '😐 😑 😶 😏 😒 🙄 😬 🤥 😌 😔 😪 🤤 😴 😷 🤒 🤕 🤢 🤮 🤧 🥵 🥶 🥴 😵 🤯 🤠 🥳 😎 🤓 🧐 😕 😟 🙁 ' +
        '😮 😯 😲 😳 🥺 😦 😧 😨 😰 😥 😢 😭 😱 😖 😣 😞 😓 😩 😫 🥱 😤 😡 😠 🤬 😈 👿 💀 💩 🤡 👻 👽 🤖',
    ),
  },
  {
    key: 'gestures',
    icon: '👍',
    emojis: list(
      '👍 👎 👌 🤌 🤏 ✌️ 🤞 🤟 🤘 🤙 👈 👉 👆 👇 ☝️ ✋ 🤚 🖐️ 🖖 👋 👏 🙌 👐 🤲 🤝 🙏 ✍️ 💪 🦾 👀 👁️ 👄 ' +
        '🙋 🙋‍♂️ 🙋‍♀️ 🙆 🙅 🤷 🤷‍♂️ 🤷‍♀️ 🤦 🤦‍♂️ 🤦‍♀️ 💁 💁‍♂️ 💁‍♀️ 🙇 🧑‍💻 🧑‍🔧 🧑‍🍳 🧑‍💼 🚶 🏃 💃 🕺 👪 👶 🧒 🧑 👩 👨 🧓',
    ),
  },
  {
    key: 'hearts',
    icon: '❤️',
    emojis: list(
      '❤️ 🧡 💛 💚 💙 💜 🤎 🖤 🤍 💔 ❣️ 💕 💞 💓 💗 💖 💘 💝 💟 ✨ ⭐ 🌟 💫 🔥 💯 ✅ ☑️ ✔️ ❌ ❎ ⚠️ ❗ ' +
        '❓ ‼️ ⁉️ 💤 💢 💬 💭 🗯️ 🔔 🔕 📣 📢 🆗 🆕 🆓 🔝 🔜 ⏩ ⏪ ▶️ ⏸️ ⏹️ 🔴 🟠 🟡 🟢 🔵 🟣 ⚫ ⚪',
    ),
  },
  {
    key: 'nature',
    icon: '🌱',
    emojis: list(
      '🐶 🐱 🐭 🐹 🐰 🦊 🐻 🐼 🐨 🐯 🦁 🐮 🐷 🐸 🐵 🐔 🐧 🐦 🐤 🦆 🦉 🐴 🦄 🐝 🦋 🐌 🐞 🐢 🐍 🐙 🐬 🐳 ' +
        '🌱 🌿 🍀 🌵 🌴 🌳 🌲 🍁 🍂 🌷 🌹 🌺 🌸 🌼 🌻 💐 🌞 🌝 🌙 ⭐ ☀️ ⛅ ☁️ 🌧️ ⛈️ 🌈 ❄️ ☃️ 💧 🌊 🌍 🌎',
    ),
  },
  {
    key: 'food',
    icon: '🍕',
    emojis: list(
      '🍏 🍎 🍐 🍊 🍋 🍌 🍉 🍇 🍓 🍒 🍑 🥭 🍍 🥥 🥝 🍅 🥑 🥦 🥕 🌽 🥔 🍞 🥐 🧀 🥚 🍳 🥓 🍔 🍟 🍕 🌭 🥪 ' +
        '🌮 🌯 🥗 🍝 🍜 🍣 🍱 🍤 🍚 🍰 🎂 🧁 🍩 🍪 🍫 🍬 🍭 🍦 ☕ 🍵 🧃 🥤 🍺 🍻 🥂 🍷 🥃 🍹 🍾 🧊 🍽️ 🥄',
    ),
  },
  {
    key: 'activities',
    icon: '⚽',
    emojis: list(
      '⚽ 🏀 🏈 ⚾ 🎾 🏐 🏉 🎱 🏓 🏸 🥊 🏆 🥇 🥈 🥉 🏅 🎖️ 🎗️ 🎫 🎟️ 🎪 🎭 🎨 🎬 🎤 🎧 🎼 🎹 🥁 🎷 🎺 🎸 ' +
        '🎮 🎲 🧩 🎯 🎳 🎉 🎊 🎈 🎁 🎀 🪅 🎄 🎃 🎆 🎇 🧨 🏖️ 🏕️ 🏔️ 🗺️ ✈️ 🚗 🚕 🚌 🚚 🏍️ 🚲 🛵 🚀 🛳️ ⛽ 🚦',
    ),
  },
  {
    key: 'objects',
    icon: '💡',
    emojis: list(
      '📱 💻 🖥️ ⌨️ 🖱️ 🖨️ 📷 📹 📺 📻 ☎️ 📞 📟 📠 🔋 🔌 💡 🔦 🕯️ 🧯 🛒 💳 💰 💵 💶 🧾 📦 📫 📬 📮 ✉️ 📧 ' +
        '📝 📄 📃 📑 📊 📈 📉 📅 📆 🗓️ 📌 📍 📎 🖇️ ✂️ 🗂️ 📁 📂 🗃️ 🔒 🔓 🔑 🗝️ 🔨 🛠️ 🔧 ⚙️ 🧰 🧲 ⏰ ⌛ ⏳',
    ),
  },
  {
    key: 'symbols',
    icon: '🔣',
    emojis: list(
      '➡️ ⬅️ ⬆️ ⬇️ ↗️ ↘️ ↙️ ↖️ ↔️ ↕️ 🔄 🔃 🔁 🔂 ➕ ➖ ➗ ✖️ 💲 💱 ™️ ©️ ®️ 〰️ ➰ ➿ 🔚 🔙 🔛 🔝 🔜 ✳️ ' +
        '#️⃣ *️⃣ 0️⃣ 1️⃣ 2️⃣ 3️⃣ 4️⃣ 5️⃣ 6️⃣ 7️⃣ 8️⃣ 9️⃣ 🔟 🔠 🔡 🔢 🔤 🅰️ 🅱️ 🆎 🆑 🅾️ 🆘 ⛔ 🚫 📵 🔞 ♻️ 🏁 🚩 🇧🇷 🇵🇹',
    ),
  },
]
